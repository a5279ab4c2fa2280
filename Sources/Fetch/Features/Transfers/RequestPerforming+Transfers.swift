/// Downloads and uploads set their ``RequestOptions/kind`` and go through `perform`, so every
/// layer applies. A callback form always names its `progress` (`progress: nil` for none), so a
/// trailing closure after `download(_:to:)` or `upload(_:)` alone is the async form's progress.
extension RequestPerforming {
    /// Performs `request` and writes the response body to `destination`.
    ///
    /// A status other than 2xx fails the call with ``FetchError/Code-swift.enum/httpStatus``
    /// (its `response` holds the head and the first bytes of the error body) and leaves no
    /// file. Layers see the response before it becomes a file, so retry and refresh act on it.
    /// - Parameters:
    ///   - request: what to send.
    ///   - destination: where the body goes.
    ///   - progress: the bytes received so far (counting kept bytes), at most about 20 times
    ///     a second, in order, then once with ``TransferProgress/isFinished`` before
    ///     `completion`; `nil` for none.
    ///   - completion: called once with the file and the response, or an error.
    /// - Returns: a handle that cancels the download, or keeps what it received for a resume.
    @discardableResult
    public func download(
        _ request: any Request,
        to destination: DownloadDestination,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<DownloadedFile, any Error>) -> Void
    ) -> DownloadHandle {
        let handle = DownloadHandle()
        let destination = destination.named(for: request)
        let keepsPartial = handle.keepsPartial
        var transfer = TransferOptions(destination: destination, progress: progress)
        transfer.keepsPartial = keepsPartial
        let outgoing = LayeredRequest(request, options: { $0.kind = .download(transfer) })
        handle.run(
            perform(outgoing) { result in
                let outcome = result.flatMap { response in
                    Result { try destination.downloadedFile(response, for: request, progress: progress) }
                }
                if case .failure(let error) = outcome {
                    destination.abandonPartial(after: error, keeping: keepsPartial.withLock { $0 })
                }
                completion(outcome.mapError { ($0 as? FetchError)?.naming(request, through: self) ?? $0 })
            })
        return handle
    }

    /// Performs `request`, whose body comes from memory, a file or a form with file parts,
    /// reporting how much has been sent; the result is `perform`'s, whatever the status.
    /// - Parameters:
    ///   - request: what to send; it must have a body.
    ///   - progress: the bytes sent so far, as for a download; `nil` for none.
    ///   - completion: called once with the response or an error.
    @discardableResult
    public func upload(
        _ request: any Request,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        perform(
            LayeredRequest(request, options: { $0.kind = .upload(TransferOptions(progress: progress)) }),
            completion: completion)
    }

    /// Downloads the body of `request` into `destination` and returns the file; cancelling
    /// the calling `Task` cancels the download, which leaves no file behind.
    /// - Parameters:
    ///   - request: what to send.
    ///   - destination: where the body goes.
    ///   - progress: the bytes received so far (see ``download(_:to:progress:completion:)``).
    /// - Throws: a ``FetchError``: ``FetchError/Code-swift.enum/httpStatus`` for a non-2xx
    ///   status, ``FetchError/Code-swift.enum/file`` when the destination cannot be written.
    public func download(
        _ request: any Request,
        to destination: DownloadDestination,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> DownloadedFile {
        try await Transfer<DownloadedFile>.start { _, completion, _ in
            download(request, to: destination, progress: progress, completion: completion)
        }.value
    }

    /// Sends `request` and its body, reporting progress, and returns the response whatever
    /// its status; cancelling the calling `Task` cancels the upload.
    /// - Throws: a ``FetchError``; ``FetchError/Code-swift.enum/file`` when a file of the body cannot be read.
    public func upload(
        _ request: any Request,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response {
        try await Transfer<Response>.start { _, completion, _ in
            upload(request, progress: progress, completion: completion)
        }.value
    }

    /// Starts downloading the body of `request` into `destination`; the transfer has its progress and its value.
    public func downloading(_ request: any Request, to destination: DownloadDestination) -> Transfer<DownloadedFile> {
        Transfer.start { progress, completion, dropped in
            let noted = LayeredRequest(request, options: { $0.droppedHandle = dropped })
            return download(noted, to: destination, progress: progress, completion: completion)
        }
    }

    /// Starts sending `request` and its body; the transfer has its progress and the response.
    public func uploading(_ request: any Request) -> Transfer<Response> {
        Transfer.start { progress, completion, dropped in
            let noted = LayeredRequest(request, options: { $0.droppedHandle = dropped })
            return upload(noted, progress: progress, completion: completion)
        }
    }
}
