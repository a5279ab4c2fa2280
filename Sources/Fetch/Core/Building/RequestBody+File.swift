extension RequestBody {
    /// The contents of the file at `url` (a `file://` URL), streamed from disk with its `Content-Length`
    /// when the request is sent (`makeURLRequest()` leaves `httpBody` empty). A file missing or
    /// unreadable then fails the call with ``FetchError/Code-swift.enum/file``.
    public static func file(_ url: URL, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(source: .file(url), contentType: contentType)
    }

    /// The file this body is read from, for a ``file(_:contentType:)`` body.
    public var fileURL: URL? {
        if case .file(let url) = source { return url }
        return nil
    }

    /// The multipart form, for a ``multipart(_:)`` body that has file parts.
    public var streamedForm: MultipartForm? {
        if case .form(let form) = source { return form }
        return nil
    }

    /// Checks, as `Session` does before sending, that every file the body streams from is a readable regular file.
    /// - Throws: ``FetchError/Code-swift.enum/file`` naming the first one that is not.
    public func checkFiles() throws {
        switch source {
        case .file(let url): try FileBody.checkReadable(url)
        case .form(let form):
            for part in form.parts {
                if case .file(let url) = part.content { try FileBody.checkReadable(url) }
            }
        case .data, .encoded: return
        }
    }

    /// Whether the body is streamed from files when sent (a file, or a form with file parts).
    public var isStreamed: Bool { fileURL != nil || streamedForm != nil }

    /// The body's length in bytes if known without encoding it; `nil` for JSON or a file whose size is unreadable.
    public var knownLength: Int64? {
        switch source {
        case .data(let data): return Int64(data.count)
        case .encoded: return nil
        case .file(let url): return FileBody.size(of: url)
        case .form(let form): return form.contentLength
        }
    }
}
