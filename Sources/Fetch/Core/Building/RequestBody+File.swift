extension RequestBody {
    /// The contents of a file, streamed from disk when the request is sent.
    ///
    /// `Session` sends it with an upload task, with its `Content-Length`, never loading
    /// the file into memory; `makeURLRequest()` leaves `httpBody` empty for it. The file is
    /// read when the request is sent: a missing or unreadable file fails the call with
    /// ``FetchError/Code-swift.enum/file``.
    /// - Parameters:
    ///   - url: a `file://` URL.
    ///   - contentType: for example `"image/png"`; `application/octet-stream` by default.
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

    /// Checks that every file the body is streamed from is a readable regular file, as
    /// `Session` does before sending it: the file of a ``file(_:contentType:)`` body, the
    /// file parts of a ``streamedForm``. A body in memory has nothing to check.
    /// - Throws: ``FetchError/Code-swift.enum/file`` naming the first file that is missing
    ///   or cannot be read.
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

    /// Whether the body is streamed from files when sent (a file, or a form with file
    /// parts) rather than encoded in memory.
    public var isStreamed: Bool { fileURL != nil || streamedForm != nil }

    /// The body's length in bytes when it is known without encoding it: bytes in memory,
    /// a file's size, a form's length; `nil` for bodies encoded when sent (JSON) and for
    /// files whose size cannot be read.
    public var knownLength: Int64? {
        switch source {
        case .data(let data): return Int64(data.count)
        case .encoded: return nil
        case .file(let url): return FileBody.size(of: url)
        case .form(let form): return form.contentLength
        }
    }
}
