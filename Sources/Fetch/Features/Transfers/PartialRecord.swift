/// What a partial download keeps in `<destination>.fetchpart.json`: its URL and the strong validator for `If-Range`
/// (RFC 9110 section 8.8.2.2), written only for a response that can be resumed (see <doc:TransferringFiles>).
struct PartialRecord: Codable, Hashable, Sendable {
    /// The URL of the request, as first sent (before redirects).
    var url: String
    var etag: String?
    /// Set only when there is no `ETag`.
    var lastModified: String?
    var length: Int64?

    var validator: String? { etag ?? lastModified }

    /// `nil` when a 2xx body from its first byte cannot be resumed.
    init?(url: URL?, headers: HTTPHeaders, length: Int64?) {
        guard let url, Self.isIdentity(headers) else { return nil }
        self.url = url.absoluteString
        self.length = length
        if let tag = headers.first("ETag")?.trimmingCharacters(in: .whitespaces), !tag.isEmpty {
            // RFC 9110 section 13.1.5: a weak entity tag (`W/`) must never be sent in If-Range. A tag without quotes
            // (httpbin sends `range1024`) counts: the server compares `If-Range` with what it sent.
            guard !tag.hasPrefix("W/"), !tag.hasPrefix("w/"), !tag.contains(where: \.isNewline) else { return nil }
            etag = tag
        } else if let modified = headers.first("Last-Modified"), let date = HTTPDate.parse(modified),
            // A Last-Modified at least 60 seconds before the response's Date is strong (RFC 9110 section 8.8.2.2).
            let sent = headers.first("Date").flatMap(HTTPDate.parse), sent.timeIntervalSince(date) >= 60
        {
            lastModified = modified
        } else {
            return nil
        }
    }

    /// Whether the body arrives as the representation itself: no `Content-Encoding`, or `identity`.
    static func isIdentity(_ headers: HTTPHeaders) -> Bool {
        guard let coding = headers.first("Content-Encoding")?.trimmingCharacters(in: .whitespaces) else { return true }
        return coding.isEmpty || coding.lowercased() == "identity"
    }
}

/// Where a download to one destination keeps its partial state.
struct PartialFiles: Hashable, Sendable {
    let finalURL: URL

    var bytesURL: URL { URL(fileURLWithPath: finalURL.path + ".fetchpart") }
    var recordURL: URL { URL(fileURLWithPath: finalURL.path + ".fetchpart.json") }

    func readRecord() -> PartialRecord? {
        guard let data = FileManager.default.contents(atPath: recordURL.path) else { return nil }
        return try? JSONDecoder().decode(PartialRecord.self, from: data)
    }

    /// Writes `record`, or removes the record when `nil`.
    func write(_ record: PartialRecord?) throws {
        guard let record else {
            unlink(recordURL.path)
            return
        }
        try JSONEncoder().encode(record).write(to: recordURL, options: .atomic)
    }

    func remove() {
        unlink(bytesURL.path)
        unlink(recordURL.path)
    }
}

/// Where a download resumes: the first byte to ask for and the validator that guards it.
struct ResumePoint: Hashable, Sendable {
    /// The partial file's size, or one byte less when the file holds the whole body: asking
    /// for the last byte again gets a 206 that proves the file current, not a 416.
    let offset: Int64
    let size: Int64
    let validator: String
    let record: PartialRecord

    /// `nil` without a partial file and a record of `url`, or when the file outgrew the body.
    init?(_ files: PartialFiles, for url: URL?) {
        let size = FileBody.size(of: files.bytesURL) ?? 0
        guard size > 0, let url, let record = files.readRecord(), record.url == url.absoluteString,
            let validator = record.validator
        else { return nil }
        if let length = record.length, size > length { return nil }
        offset = size == record.length ? size - 1 : size
        self.size = size
        self.validator = validator
        self.record = record
    }

    var range: String { "bytes=\(offset)-" }

    /// The point on disk, if `urlRequest` carries its `Range` and `If-Range`.
    static func asked(by urlRequest: URLRequest, of files: PartialFiles) -> ResumePoint? {
        guard let range = urlRequest.value(forHTTPHeaderField: "Range"),
            let point = ResumePoint(files, for: urlRequest.url), range == point.range,
            urlRequest.value(forHTTPHeaderField: "If-Range") == point.validator
        else { return nil }
        return point
    }
}
