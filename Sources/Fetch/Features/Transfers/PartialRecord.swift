/// What Fetch keeps about a partial download besides its bytes, in a small JSON file next to
/// the partial file (`<destination>.fetchpart.json`): which URL it came from and the strong
/// validator that lets the next attempt ask for the rest with `If-Range`.
///
/// The bytes themselves are in `<destination>.fetchpart`; its size is how far the download
/// got. The record is written when a 2xx response starts the body and only when the
/// response can be resumed: it has a strong `ETag` (not `W/`; or, without one, a `Last-Modified` at
/// least 60 seconds older than its `Date`, RFC 9110 section 8.8.2.2) and no
/// `Content-Encoding` (a range of a compressed representation does not match the decoded
/// bytes written to disk). Without a record the partial file is never resumed.
struct PartialRecord: Codable, Hashable, Sendable {
    /// The URL of the request, as first sent (before redirects).
    var url: String
    /// The response's `ETag`, when strong.
    var etag: String?
    /// The response's `Last-Modified`, when there is no `ETag` and it is strong enough.
    var lastModified: String?
    /// The whole body's length, when the response said.
    var length: Int64?

    /// The value for `If-Range`: the entity tag, else the date.
    var validator: String? { etag ?? lastModified }

    /// The record for a 2xx response that starts a body from its first byte, or `nil` when
    /// that body cannot be resumed.
    /// - Parameters:
    ///   - url: the URL the request was first sent to.
    ///   - length: the whole body's length, if known.
    init?(url: URL?, headers: HTTPHeaders, length: Int64?) {
        guard let url, Self.isIdentity(headers) else { return nil }
        self.url = url.absoluteString
        self.length = length
        if let tag = headers.first("ETag")?.trimmingCharacters(in: .whitespaces), !tag.isEmpty {
            // RFC 9110 section 13.1.5: a weak entity tag must never be sent in If-Range.
            guard Self.isStrong(tag) else { return nil }
            etag = tag
        } else if let modified = headers.first("Last-Modified"), Self.isStrong(modified, sentAt: headers.first("Date"))
        {
            lastModified = modified
        } else {
            return nil
        }
    }

    /// Whether `tag` is a strong entity tag: not marked weak with `W/`. A tag without its
    /// quotes (httpbin sends `range1024`) counts as strong too: the server compares `If-Range`
    /// with what it sent, character for character.
    static func isStrong(_ tag: String) -> Bool {
        !tag.hasPrefix("W/") && !tag.hasPrefix("w/") && !tag.contains(where: { $0.isNewline })
    }

    /// Whether a `Last-Modified` date may be used as a strong validator: RFC 9110 section
    /// 8.8.2.2 allows it when it is at least 60 seconds before the response's `Date`.
    static func isStrong(_ lastModified: String, sentAt date: String?) -> Bool {
        guard let date, let sent = HTTPDate.parse(date), let modified = HTTPDate.parse(lastModified) else {
            return false
        }
        return sent.timeIntervalSince(modified) >= 60
    }

    /// Whether the body arrives as the representation itself: no `Content-Encoding`, or `identity`.
    static func isIdentity(_ headers: HTTPHeaders) -> Bool {
        guard let coding = headers.first("Content-Encoding")?.trimmingCharacters(in: .whitespaces) else { return true }
        return coding.isEmpty || coding.lowercased() == "identity"
    }
}

/// Where a download to one destination keeps its partial state.
struct PartialFiles: Hashable, Sendable {
    /// The destination.
    let finalURL: URL

    /// The bytes received so far: `<destination>.fetchpart`.
    var bytesURL: URL { URL(fileURLWithPath: finalURL.path + ".fetchpart") }
    /// The ``PartialRecord``: `<destination>.fetchpart.json`.
    var recordURL: URL { URL(fileURLWithPath: finalURL.path + ".fetchpart.json") }

    /// The record, when there is one that reads.
    func readRecord() -> PartialRecord? {
        guard let data = FileManager.default.contents(atPath: recordURL.path) else { return nil }
        return try? JSONDecoder().decode(PartialRecord.self, from: data)
    }

    /// Writes `record`, or removes the record when `nil`.
    /// - Throws: the error of the write.
    func write(_ record: PartialRecord?) throws {
        guard let record else {
            unlink(recordURL.path)
            return
        }
        try JSONEncoder().encode(record).write(to: recordURL, options: .atomic)
    }

    /// Removes both files.
    func remove() {
        unlink(bytesURL.path)
        unlink(recordURL.path)
    }
}

/// Where a download resumes: the first byte to ask for and the validator that guards it.
struct ResumePoint: Hashable, Sendable {
    /// The first byte asked for. It is the partial file's size, or one byte less when the
    /// file already holds the whole body: asking for the last byte again gets a 206 that
    /// proves the file is current, where asking for nothing would get a 416.
    let offset: Int64
    /// The partial file's size.
    let size: Int64
    /// The `If-Range` value.
    let validator: String
    /// The record the point was read from.
    let record: PartialRecord

    /// The point at which a download of `url` to `files` resumes, or `nil` when there is no
    /// partial file, no record, or one for another URL or longer than the body.
    init?(_ files: PartialFiles, for url: URL?) {
        let size = FileBody.size(of: files.bytesURL) ?? 0
        guard size > 0, let url, let record = files.readRecord(), record.url == url.absoluteString,
            let validator = record.validator
        else { return nil }
        if let length = record.length {
            guard size <= length else { return nil }
            offset = size == length ? size - 1 : size
        } else {
            offset = size
        }
        self.size = size
        self.validator = validator
        self.record = record
    }

    /// The `Range` header value.
    var range: String { "bytes=\(offset)-" }

    /// The point `urlRequest` asks for, for a download to `files`: the one on disk, if the
    /// request carries its `Range` and `If-Range`.
    static func asked(by urlRequest: URLRequest, of files: PartialFiles) -> ResumePoint? {
        guard let range = urlRequest.value(forHTTPHeaderField: "Range"),
            let point = ResumePoint(files, for: urlRequest.url), range == point.range,
            urlRequest.value(forHTTPHeaderField: "If-Range") == point.validator
        else { return nil }
        return point
    }
}
