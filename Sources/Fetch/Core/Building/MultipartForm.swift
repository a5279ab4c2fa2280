/// A `multipart/form-data` body (RFC 7578), built part by part, with a random boundary per form.
/// File parts are streamed when the request is sent, never loaded into memory.
public struct MultipartForm: Sendable {
    /// One part of the form.
    public struct Part: Sendable {
        /// Where a part's bytes come from.
        public enum Content: Sendable {
            /// Bytes in memory.
            case data(Data)
            /// The contents of a file, read in chunks when the form is sent.
            case file(URL)
        }

        /// The form field name.
        public var name: String
        /// The file name sent with the part, for file fields.
        public var fileName: String?
        /// The part's content type; none for plain text fields.
        public var contentType: String?
        /// The part's bytes, or the file that holds them.
        public var content: Content

        /// Makes a part from bytes.
        public init(name: String, fileName: String? = nil, contentType: String? = nil, data: Data) {
            self.init(name: name, fileName: fileName, contentType: contentType, content: .data(data))
        }

        /// Makes a part whose bytes are the contents of `file`, streamed when sent.
        public init(name: String, fileName: String? = nil, contentType: String? = nil, file: URL) {
            self.init(name: name, fileName: fileName, contentType: contentType, content: .file(file))
        }

        /// Makes a part from its content.
        public init(name: String, fileName: String?, contentType: String?, content: Content) {
            self.name = name
            self.fileName = fileName
            self.contentType = contentType
            self.content = content
        }
    }

    /// The boundary between parts.
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// Makes an empty form with a random boundary (or the one given, for tests).
    public init(boundary: String = "fetch-boundary-" + UUID().uuidString.lowercased()) {
        self.boundary = boundary
    }

    /// Adds a text field.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, data: Data(value.utf8)))
    }

    /// Adds a file or binary field.
    public mutating func append(
        _ data: Data, name: String, fileName: String? = nil,
        contentType: String? = "application/octet-stream"
    ) {
        parts.append(Part(name: name, fileName: fileName, contentType: contentType, data: data))
    }

    /// Adds a field whose bytes are the contents of `file` (a `file://` URL), sent under the
    /// file's own name unless `fileName` is given. The file is read when the request is sent;
    /// a file missing then fails the call with ``FetchError/Code-swift.enum/file``.
    public mutating func append(
        contentsOf file: URL, name: String, fileName: String? = nil,
        contentType: String = "application/octet-stream"
    ) {
        parts.append(
            Part(name: name, fileName: fileName ?? file.lastPathComponent, contentType: contentType, file: file))
    }

    /// Adds a part.
    public mutating func append(_ part: Part) { parts.append(part) }

    /// The `Content-Type` header value, naming the boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Whether any part comes from a file.
    public var hasFileParts: Bool {
        parts.contains { if case .file = $0.content { return true } else { return false } }
    }

    /// The encoded body, in memory, file parts read whole (a request body streams them instead).
    /// - Throws: ``FetchError/Code-swift.enum/encoding`` for CR or LF in a name or type, or a part
    ///   holding the boundary; ``FetchError/Code-swift.enum/file`` for an unreadable file part.
    public func encoded() throws -> Data {
        var body = Data()
        try encode { body.append($0) }
        return body
    }

    /// The encoded form in pieces, in order; file parts in `chunkSize` chunks, so memory stays bounded.
    func encode(chunkSize: Int = 256 * 1024, into write: (Data) throws -> Void) throws {
        let delimiter = Data("--\(boundary)".utf8)
        for part in parts {
            // Scalars, not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
            let texts = [part.name, part.fileName ?? "", part.contentType ?? ""]
            if texts.contains(where: { $0.unicodeScalars.contains { $0 == "\r" || $0 == "\n" } }) {
                throw refusing(part, "has CR or LF in its name or type")
            }
            try write(delimiter + Data("\r\n".utf8) + Data(headerLines(for: part).utf8))
            switch part.content {
            case .data(let data):
                if data.range(of: delimiter) != nil { throw refusing(part, "contains the boundary") }
                try write(data)
            case .file(let url):
                try copy(url, of: part, chunkSize: chunkSize, delimiter: delimiter, into: write)
            }
            try write(Data("\r\n".utf8))
        }
        try write(Data("--\(boundary)--\r\n".utf8))
    }

    func headerLines(for part: Part) -> String {
        var disposition = "Content-Disposition: form-data; name=\"\(Self.quote(part.name))\""
        if let fileName = part.fileName { disposition += "; filename=\"\(Self.quote(fileName))\"" }
        var lines = disposition + "\r\n"
        if let contentType = part.contentType { lines += "Content-Type: \(contentType)\r\n" }
        return lines + "\r\n"
    }

    func refusing(_ part: Part, _ problem: String) -> FetchError {
        FetchError(.encoding, reason: "multipart part \"\(part.name)\" \(problem)")
    }

    /// Escapes `\` and percent-encodes `"` in a quoted header parameter.
    static func quote(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "%22")
    }
}

extension RequestBody {
    /// The form as `multipart/form-data`; one with file parts is streamed (see <doc:TransferringFiles>).
    public static func multipart(_ form: MultipartForm) -> RequestBody {
        if form.hasFileParts { return RequestBody(source: .form(form), contentType: form.contentType) }
        return RequestBody(source: .encoded { _ in try form.encoded() }, contentType: form.contentType)
    }
}
