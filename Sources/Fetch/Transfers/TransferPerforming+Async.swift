extension TransferPerforming {
    /// Downloads the body of `request` into `destination` and returns the file.
    ///
    /// Cancelling the calling `Task` cancels the download, which leaves no file behind.
    /// - Parameters:
    ///   - request: what to send.
    ///   - destination: where the body goes.
    ///   - progress: called with the bytes received so far (see
    ///     ``TransferPerforming/download(_:to:progress:completion:)``).
    /// - Throws: a ``FetchError``: ``FetchError/Code-swift.enum/httpStatus`` for a non-2xx
    ///   status, ``FetchError/Code-swift.enum/file`` when the destination cannot be written.
    public func download(
        _ request: any Request,
        to destination: DownloadDestination,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> DownloadedFile {
        try await Transfer<DownloadedFile>.start { _, completion in
            download(request, to: destination, progress: progress, completion: completion)
        }.value
    }

    /// Sends `request` and its body, reporting progress, and returns the response whatever
    /// its status.
    ///
    /// Cancelling the calling `Task` cancels the upload.
    /// - Throws: a ``FetchError``; ``FetchError/Code-swift.enum/file`` when a file of the
    ///   body cannot be read.
    public func upload(
        _ request: any Request,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response {
        try await Transfer<Response>.start { _, completion in
            upload(request, progress: progress, completion: completion)
        }.value
    }

    /// Starts downloading the body of `request` into `destination`; follow its progress as
    /// an `AsyncSequence` and await its value.
    /// - Returns: the transfer, already started.
    public func downloading(_ request: any Request, to destination: DownloadDestination) -> Transfer<DownloadedFile> {
        Transfer.start { progress, completion in
            download(request, to: destination, progress: progress, completion: completion)
        }
    }

    /// Starts sending `request` and its body; follow its progress as an `AsyncSequence` and
    /// await the response.
    /// - Returns: the transfer, already started.
    public func uploading(_ request: any Request) -> Transfer<Response> {
        Transfer.start { progress, completion in
            upload(request, progress: progress, completion: completion)
        }
    }
}
