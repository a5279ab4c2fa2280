/// A download answered with a body in memory (by the spy, a stub, a layer that recovers an
/// error) goes through the same ``TransferMachine`` as `Session`'s, resuming included.
extension DownloadDestination {
    /// Writes `data` to the destination by the same rules as a download (for test doubles).
    /// - Parameters:
    ///   - data: the whole body.
    ///   - request: the request answered; names a temporary file's extension.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when the destination exists and may
    ///   not be replaced, cannot be written, or another download to it is under way.
    public func write(_ data: Data, for request: any Request) throws -> URL {
        try downloadedFile(Response(request: request, status: 200, body: data), for: request, progress: nil).fileURL
    }

    /// Keeps `received`, what arrived of `response`'s body before it broke off, as `Session`
    /// does after a lost connection (for test doubles that script a cut download).
    ///
    /// `response.urlRequest` must be the request as sent (its `Range` makes `received` continue
    /// the kept file). Nothing is kept for a response that cannot be resumed or is not a 2xx.
    /// - Parameters:
    ///   - received: the start of the body (or of the part a 206 sends).
    ///   - response: the cut response; its headers describe the whole body.
    ///   - request: the request answered.
    /// - Returns: whether a partial file was kept.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when it cannot be written;
    ///   ``FetchError/Code-swift.enum/badServerResponse`` for a mismatched `Content-Range`.
    @discardableResult
    public func keepPartial(_ received: Data, of response: Response, for request: any Request) throws -> Bool {
        let announced = response.headers.first("Content-Length").flatMap { Int64($0) }
        let (transfer, staged) = try stage(received, of: response, length: announced, for: request)
        transfer.close(keepingPartial: true)
        return PartialDownload.existing(for: staged.finalURL) != nil
    }

    /// The file a performer wrote (``Response/fileURL``), or its answer in memory written here (all, or the rest for a
    /// 206 to Fetch's `Range`), then a finished report. Throws `httpStatus` for a status with no body for the file,
    /// `badServerResponse` for a mismatched `Content-Range` or an unresumable partial download (deleted), or `file`.
    func downloadedFile(
        _ response: Response, for request: any Request, progress: (@Sendable (TransferProgress) -> Void)?
    ) throws -> DownloadedFile {
        var bodiless = response
        bodiless.fileURL = nil
        bodiless.body = Data()
        if let written = response.fileURL, response.isSuccess {
            return DownloadedFile(response: bodiless, fileURL: written)
        }
        // A 416 to Fetch's own `Range` may say the partial file is whole already.
        guard response.isSuccess || (response.status == 416 && response.fileURL == nil) else {
            throw FetchError.httpStatus(response)
        }
        let (transfer, _) = try stage(response.body, of: response, length: Int64(response.body.count), for: request)
        defer { transfer.close() }
        let settled = try transfer.settle(response)
        guard let file = settled.fileURL else { throw FetchError.httpStatus(response) }
        bodiless.status = settled.status
        progress?(.finished(transfer.bodyBytes))
        return DownloadedFile(response: bodiless, fileURL: file)
    }

    /// A download that has taken the head of `response` and `body`; closed, its file deleted, when either fails it.
    private func stage(
        _ body: Data, of response: Response, length: Int64?, for request: any Request
    ) throws -> (TransferState, StagedDownload) {
        var urlRequest = response.urlRequest
        let staged = try StagedDownload(self, for: request, sending: &urlRequest)
        let transfer = TransferState(
            staged: staged, uploadFile: nil, uploadLength: nil, progress: nil, queue: .global())
        let failure: FetchError? =
            switch transfer.open(response, expectedLength: length ?? -1) {
            case .accepted: transfer.write(body)
            case .declined: nil
            case .failed(let error): error
            case .startOver:
                FetchError(
                    .badServerResponse,
                    reason: "the partial download cannot be resumed: it was "
                        + "deleted, and the next download starts from the first byte")
            }
        if let failure {
            transfer.close()
            throw failure
        }
        return (transfer, staged)
    }
}
