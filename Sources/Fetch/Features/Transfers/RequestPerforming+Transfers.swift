/// Downloads and uploads are calls like any other: each sets its ``RequestOptions/kind``
/// on its request and goes through `perform`, so every layer of the stack applies to it.
///
/// ```swift
/// let api = Session().enhanced(by: BaseURL("https://api.example.com"), BearerToken(store))
/// let file = try await api.download(GetReport(), to: .file(reportURL)) { print($0) }
/// ```
///
/// The async and the callback forms cannot be confused: a callback form always names its
/// `progress` (`progress: nil` for none) before its completion, so a trailing closure after
/// `download(_:to:)` or `upload(_:)` alone is always the async form's progress, in a function
/// and in top-level code alike, and never a completion that returns at once.
extension RequestPerforming {
    /// Performs `request` and writes the response body to `destination`.
    ///
    /// A 2xx response ends in `destination`; any other status fails the call with
    /// ``FetchError/Code-swift.enum/httpStatus``, whose `response` holds the status, the
    /// headers and the first bytes of the error body, and leaves no file behind. Layers see
    /// the response before it becomes a file: a retry policy or a refresh handler acts on
    /// its status as for any call.
    ///
    /// A download that fails with one of ``PartialDownload/resumableCodes``, or that is
    /// cancelled with ``DownloadHandle/cancelKeepingPartial()``, keeps what it received next
    /// to `destination` when the server allows resuming; the next attempt (a retry) or the
    /// next download to the same `.file` destination asks only for the rest (`Range` with
    /// `If-Range`). Any other end leaves no partial file behind, and a `.temporaryFile`
    /// download resumes only within its own call.
    /// - Parameters:
    ///   - request: what to send.
    ///   - destination: where the body goes.
    ///   - progress: called with the bytes received so far, at most about 20 times a second,
    ///     in order, and once more with ``TransferProgress/isFinished`` before `completion`;
    ///     a resumed download counts from the bytes it already had. `nil` for none; always
    ///     given, so that a trailing closure cannot stand for it.
    ///   - completion: called once with the file and the response, or an error.
    /// - Returns: a handle that cancels the download, deleting what it received, or keeps it
    ///   for a later resume.
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
                    Result { try DownloadedFile(response, writingTo: destination, for: request, progress: progress) }
                }
                if case .failure(let error) = outcome {
                    destination.abandonPartial(after: error, keeping: keepsPartial.withLock { $0 })
                }
                completion(outcome.mapError { ($0 as? FetchError)?.naming(request, through: self) ?? $0 })
            })
        return handle
    }

    /// Performs `request`, whose body is sent from memory, from a file or from a form with
    /// file parts, reporting how much of the body has been sent.
    ///
    /// The result is the same as `perform`'s: the response, whatever its status.
    /// - Parameters:
    ///   - request: what to send; it must have a body.
    ///   - progress: called with the bytes sent so far, at most about 20 times a second,
    ///     in order, and once more with ``TransferProgress/isFinished`` before `completion`.
    ///     `nil` for none; always given, so that a trailing closure cannot stand for it.
    ///   - completion: called once with the response or an error.
    /// - Returns: a handle that cancels the upload.
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

    /// Downloads the body of `request` into `destination` and returns the file.
    ///
    /// Cancelling the calling `Task` cancels the download, which leaves no file behind.
    /// - Parameters:
    ///   - request: what to send.
    ///   - destination: where the body goes.
    ///   - progress: called with the bytes received so far (see
    ///     ``download(_:to:progress:completion:)``).
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
    /// its status.
    ///
    /// Cancelling the calling `Task` cancels the upload.
    /// - Throws: a ``FetchError``; ``FetchError/Code-swift.enum/file`` when a file of the
    ///   body cannot be read.
    public func upload(
        _ request: any Request,
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> Response {
        try await Transfer<Response>.start { _, completion, _ in
            upload(request, progress: progress, completion: completion)
        }.value
    }

    /// Starts downloading the body of `request` into `destination`; follow its progress as
    /// an `AsyncSequence` and await its value.
    /// - Returns: the transfer, already started.
    public func downloading(_ request: any Request, to destination: DownloadDestination) -> Transfer<DownloadedFile> {
        Transfer.start { progress, completion, dropped in
            download(request.noting(dropped), to: destination, progress: progress, completion: completion)
        }
    }

    /// Starts sending `request` and its body; follow its progress as an `AsyncSequence` and
    /// await the response.
    /// - Returns: the transfer, already started.
    public func uploading(_ request: any Request) -> Transfer<Response> {
        Transfer.start { progress, completion, dropped in
            upload(request.noting(dropped), progress: progress, completion: completion)
        }
    }
}

extension Request {
    /// This request telling the layers where its handle records that it was dropped.
    fileprivate func noting(_ dropped: DroppedHandle) -> any Request {
        LayeredRequest(self, options: { $0.droppedHandle = dropped })
    }
}
