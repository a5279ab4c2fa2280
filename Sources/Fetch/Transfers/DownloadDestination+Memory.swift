/// Downloads answered with a body in memory (by the spy, a stub, a layer that recovers an
/// error) are written by the same rules as `Session` writes a body as it arrives, resuming
/// included: a 206 that continues the partial file is appended to it.
extension DownloadDestination {
    /// Writes `data` to the destination by the same rules as a download (for test doubles
    /// and stubs that answer downloads from bytes in memory).
    /// - Parameters:
    ///   - data: the whole body to write.
    ///   - request: the request being answered; names a temporary file's extension.
    /// - Returns: the file written.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when the destination exists and may
    ///   not be replaced, or cannot be written, or another download to it is under way.
    public func write(_ data: Data, for request: any Request) throws -> URL {
        var urlRequest = URLRequest(url: request.url)
        let staged = try StagedDownload(self, for: request, sending: &urlRequest)
        return try Self.finish(staged, answer: .fresh(length: Int64(data.count)), headers: [:], body: data).url
    }

    /// Keeps `received`, the part of `response`'s body that arrived before the transfer broke
    /// off, as `Session` keeps it after a lost connection: the next download to this
    /// destination resumes from there (for test doubles that script a cut download).
    ///
    /// `response.urlRequest` must be the request as it was sent: a `Range` and `If-Range`
    /// that Fetch added there make `received` the continuation of the partial file already
    /// kept. Nothing is kept when the response cannot be resumed (no strong validator, a
    /// `Content-Encoding`) or is not a 2xx.
    /// - Parameters:
    ///   - received: the start of the body (of the part a 206 sends).
    ///   - response: the response whose body was cut; its headers (`ETag`, `Content-Length`,
    ///     `Content-Range`) describe the whole body.
    ///   - request: the request being answered.
    /// - Returns: whether a partial file was kept.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when it cannot be written;
    ///   ``FetchError/Code-swift.enum/badServerResponse`` for a `Content-Range` that does not
    ///   match the request.
    @discardableResult
    public func keepPartial(_ received: Data, of response: Response, for request: any Request) throws -> Bool {
        let announced = response.headers.first("Content-Length").flatMap { Int64($0) }
        let (staged, answer) = try Self.stage(response, contentLength: announced, to: self, for: request)
        switch answer {
        case .fresh, .append:
            guard try Self.write(received, to: staged, answer: answer, headers: response.headers).resumable else {
                break
            }
            staged.keep()
            return true
        case .whole, .notABody:
            staged.leave()
            return staged.resume != nil
        case .startOver:
            break
        }
        staged.discard()
        return false
    }

    /// Writes the body of `response`, a performer's answer to a download, to the destination:
    /// the whole body, or the rest of a partial download for a 206 to Fetch's `Range`.
    /// - Returns: the file, its size, and whether a 416 said the partial file was whole.
    /// - Throws: ``FetchError/Code-swift.enum/httpStatus`` for a status that brings no body
    ///   for the file; ``FetchError/Code-swift.enum/badServerResponse`` for a `Content-Range`
    ///   that does not match the request, or a partial download that cannot be resumed (it is
    ///   deleted, so the next download starts from the first byte);
    ///   ``FetchError/Code-swift.enum/file`` when the file cannot be written.
    func write(_ response: Response, for request: any Request) throws -> (url: URL, size: Int64, whole: Bool) {
        let (staged, answer) = try Self.stage(
            response, contentLength: Int64(response.body.count), to: self, for: request)
        switch answer {
        case .notABody:
            staged.leave()
            throw FetchError.httpStatus(response)
        case .startOver:
            staged.discard()
            throw FetchError(
                .badServerResponse,
                reason: "the partial download cannot be resumed: it was "
                    + "deleted, and the next download starts from the first byte")
        case .whole(let length):
            return (try staged.commit(length: length), length, true)
        case .fresh, .append:
            return try Self.finish(staged, answer: answer, headers: response.headers, body: response.body)
        }
    }

    /// Opens the partial file for `response` and decides what its head means.
    private static func stage(
        _ response: Response, contentLength: Int64?, to destination: DownloadDestination,
        for request: any Request
    ) throws -> (StagedDownload, ResumeAnswer) {
        var urlRequest = response.urlRequest
        let staged = try StagedDownload(destination, for: request, sending: &urlRequest)
        do {
            let answer = try ResumeAnswer.decide(
                status: response.status, headers: response.headers, contentLength: contentLength, asked: staged.resume
            )
            return (staged, answer)
        } catch {
            staged.discard()
            throw error
        }
    }

    /// Writes `body` and moves the file into place.
    private static func finish(
        _ staged: StagedDownload, answer: ResumeAnswer, headers: HTTPHeaders,
        body: Data
    ) throws -> (url: URL, size: Int64, whole: Bool) {
        let (offset, _) = try write(body, to: staged, answer: answer, headers: headers)
        var length: Int64?
        if case .append(_, let total) = answer { length = total }
        return (try staged.commit(length: length), offset + Int64(body.count), false)
    }

    /// Writes `body` where `answer` says, deleting the partial file if that fails.
    /// - Returns: where the body started, and whether the file can be resumed.
    private static func write(
        _ body: Data, to staged: StagedDownload, answer: ResumeAnswer,
        headers: HTTPHeaders
    ) throws -> (offset: Int64, resumable: Bool) {
        do {
            let begun = try staged.begin(answer, headers: headers)
            let writer = FileWriter(descriptor: staged.handle.fileDescriptor, capacity: 64 * 1024)
            try writer.restart(at: begun.offset)
            try writer.append(body)
            try writer.flush()
            return begun
        } catch {
            staged.discard()
            throw error as? FetchError
                ?? FetchError(
                    .file, reason: "could not write \(staged.files.bytesURL.path): \(error)", underlying: error)
        }
    }
}
