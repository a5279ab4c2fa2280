/// What the head of a download's response means for its partial file: one pure function so
/// that `Session` and a performer that answers from memory (the spy) resume by the same rules.
enum ResumeAnswer: Hashable, Sendable {
    /// A body from its first byte (a new download, or a server that ignored the `Range` or
    /// whose resource changed): empty the partial file and write it.
    case fresh(length: Int64?)
    /// The rest of the body: append to the partial file cut to `offset`.
    case append(offset: Int64, length: Int64?)
    /// A 416 whose `Content-Range` says the partial file already holds the whole body.
    case whole(length: Int64)
    /// The partial file cannot be resumed (a 416 for another length, a 206 of another
    /// representation): remove it and send the request again without `Range`.
    case startOver
    /// A status other than 2xx: the partial file stays as it is.
    case notABody

    /// The meaning of a response to a request that asked for `point` (`nil`: the whole body); throws
    /// `badServerResponse` for a 206 whose `Content-Range` is missing, malformed, or does not start where the request
    /// asked.
    static func decide(
        status: Int, headers: HTTPHeaders, contentLength: Int64?,
        asked point: ResumePoint?
    ) throws(FetchError) -> ResumeAnswer {
        switch (status, point) {
        case (206, let point?):
            return try partial(headers: headers, contentLength: contentLength, asked: point)
        case (416, let point?):
            guard let range = headers.first("Content-Range").flatMap(ContentRange.init), range.first == nil,
                let length = range.length, length == point.size
            else { return .startOver }
            return .whole(length: length)
        case (200..<300, _):
            return .fresh(length: contentLength)
        default:
            return .notABody
        }
    }

    private static func partial(
        headers: HTTPHeaders, contentLength: Int64?, asked point: ResumePoint
    ) throws(FetchError) -> ResumeAnswer {
        let text = headers.first("Content-Range")
        guard let text, let range = ContentRange(text), let first = range.first, let last = range.last else {
            throw mismatch(text.map { "with Content-Range \"\($0)\"" } ?? "without a Content-Range", point)
        }
        guard first == point.offset else { throw mismatch("with Content-Range \"\(text)\"", point) }
        if let contentLength, contentLength != last - first + 1 {
            throw mismatch("with Content-Range \"\(text)\" but \(contentLength) bytes", point)
        }
        // A range of a compressed representation, or of another version, does not continue the bytes on disk.
        guard PartialRecord.isIdentity(headers) else { return .startOver }
        if let tag = headers.first("ETag"), let kept = point.record.etag, tag != kept { return .startOver }
        let length = range.length ?? point.record.length
        if let known = point.record.length, let length, known != length { return .startOver }
        return .append(offset: first, length: length)
    }

    private static func mismatch(_ what: String, _ point: ResumePoint) -> FetchError {
        FetchError(
            .badServerResponse,
            reason: "the server answered Range: \(point.range) with 206 \(what), which does not match")
    }
}
