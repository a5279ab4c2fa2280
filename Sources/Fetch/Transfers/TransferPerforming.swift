/// A performer that can also move large bodies between files and the network: download
/// a response body into a file, and upload a request body with progress.
///
/// ```swift
/// let session = Session()
/// let file = try await session.download(GetReport(), to: .file(reportURL)) { progress in
///     print(progress)
/// }
/// ```
///
/// `Session` conforms, and so does the spy in FetchTesting, so code that transfers files
/// is unit-tested without a network. A request whose body is a file
/// (``RequestBody/file(_:contentType:)``) or a multipart form with file parts can also be
/// sent with plain `perform`; ``upload(_:progress:completion:)`` adds progress.
public protocol TransferPerforming: RequestPerforming {
    /// Performs `request` and writes the response body to `destination`.
    ///
    /// A 2xx response ends in `destination`; any other status fails the call with
    /// ``FetchError/Code-swift.enum/httpStatus``, whose `response` holds the status, the
    /// headers and the first bytes of the error body, and leaves no file behind. A failed
    /// or cancelled download leaves no file behind either.
    /// - Parameters:
    ///   - request: what to send.
    ///   - destination: where the body goes.
    ///   - progress: called with the bytes received so far, at most about 20 times a second,
    ///     in order, and once more with ``TransferProgress/isFinished`` before `completion`.
    ///   - completion: called once with the file and the response, or an error.
    /// - Returns: a handle that cancels the download.
    @discardableResult
    func download(
        _ request: any Request,
        to destination: DownloadDestination,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<DownloadedFile, any Error>) -> Void
    ) -> any Cancellable

    /// Performs `request`, whose body is sent from memory, from a file or from a form with
    /// file parts, reporting how much of the body has been sent.
    ///
    /// The result is the same as `perform`'s: the response, whatever its status.
    /// - Parameters:
    ///   - request: what to send; it must have a body.
    ///   - progress: called with the bytes sent so far, at most about 20 times a second,
    ///     in order, and once more with ``TransferProgress/isFinished`` before `completion`.
    ///   - completion: called once with the response or an error.
    /// - Returns: a handle that cancels the upload.
    @discardableResult
    func upload(
        _ request: any Request,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable
}
