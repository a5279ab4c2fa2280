import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session: TransferPerforming {
    /// Downloads the body of `request` into `destination` (see
    /// ``TransferPerforming/download(_:to:progress:completion:)``).
    ///
    /// The body is written to disk as it arrives, in writes of 256 KiB, so memory stays
    /// bounded whatever its size. A transfer has no overall deadline unless the request
    /// sets ``RequestOptions/deadline``; the idle timeout still applies. Progress and the
    /// completion are called on the completion queue, in order.
    @discardableResult
    public func download(
        _ request: any Request,
        to destination: DownloadDestination,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<DownloadedFile, any Error>) -> Void
    ) -> any Cancellable {
        startTransfer(
            request, to: destination, progress: progress, deadline: request.options.deadline,
            settle: { response, transfer in
                if let kept = transfer.keptErrorBody {
                    var failed = response
                    failed.body = kept
                    throw FetchError.httpStatus(failed)
                }
                return DownloadedFile(response: response, fileURL: try transfer.commitDownload())
            },
            completion: completion
        )
    }

    /// Sends `request` and its body with an upload task, reporting progress (see
    /// ``TransferPerforming/upload(_:progress:completion:)``).
    ///
    /// A file body is read from disk as it is sent; a form with file parts is first written
    /// to a temporary file chunk by chunk (so it has a `Content-Length`), which is deleted
    /// when the call ends. A transfer has no overall deadline unless the request sets
    /// ``RequestOptions/deadline``; the idle timeout still applies.
    @discardableResult
    public func upload(
        _ request: any Request,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        guard request.body != nil else {
            let error = FetchError(
                .invalidRequest, reason: "an upload needs a body", method: request.method, url: request.url
            )
            completionQueue.async { completion(.failure(error)) }
            return CancellationHandle()
        }
        return startTransfer(
            request, to: nil, progress: progress, deadline: request.options.deadline,
            settle: Self.finishUpload, completion: completion
        )
    }

    /// `perform` for a body streamed from files: an upload without progress, with the
    /// session's deadline like any request.
    func performStreamed(
        _ request: any Request, completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let deadline = request.options.deadline ?? configuration.deadline
        return startTransfer(
            request, to: nil, progress: nil, deadline: deadline, settle: Self.finishUpload, completion: completion
        )
    }

    private static func finishUpload(_ response: Response, _ transfer: TransferState) -> Response {
        transfer.finishUpload(status: response.status)
        return response
    }

    /// Turns a task's response into a transfer's value; runs on the completion queue.
    private typealias Settle<Value> = @Sendable (Response, TransferState) throws -> Value

    /// Checks and prepares a transfer, encodes a form with file parts to a temporary file
    /// if there is one, then starts the task.
    private func startTransfer<Value: Sendable>(
        _ request: any Request, to destination: DownloadDestination?,
        progress: (@Sendable (TransferProgress) -> Void)?, deadline: Duration?,
        settle: @escaping Settle<Value>, completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) -> any Cancellable {
        let handle = CancellationHandle()
        let urlRequest: URLRequest
        let transfer: TransferState
        let form = request.body?.streamedForm
        let formFile = form.map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("fetch-upload-\(UUID().uuidString).multipart")
        }
        do {
            urlRequest = try prepare(request, options: request.options)
            transfer = TransferState(
                staged: try destination.map { try StagedDownload($0, for: request) }, uploadFile: formFile,
                uploadLength: request.body?.knownLength, progress: progress, queue: completionQueue
            )
        } catch {
            let named = Self.naming(error, request)
            completionQueue.async { completion(.failure(named)) }
            return handle
        }
        guard let form, let formFile else {
            launch(request, urlRequest, upload: request.body?.fileURL, transfer, handle, deadline, settle, completion)
            return handle
        }
        let cancelAllCount = self.cancelAllCount
        let generation = cancelAllCount.withLock { $0 }
        let isCancelled: @Sendable () -> Bool = { handle.isCancelled || cancelAllCount.withLock { $0 } != generation }
        DispatchQueue.global(qos: .utility).async {
            do {
                _ = try form.writeEncoded(to: formFile, isCancelled: isCancelled)
                if isCancelled() { throw FetchError.cancelled() }
            } catch {
                transfer.close()
                let named = Self.naming(error, request)
                transfer.events.async { completion(.failure(named)) }
                return
            }
            self.launch(request, urlRequest, upload: formFile, transfer, handle, deadline, settle, completion)
            // A cancelAll between the check above and the admission did not see this upload:
            // it bumped the count before looking, so the count tells.
            if isCancelled() { handle.cancel() }
        }
        return handle
    }

    /// Makes the transfer's task state and admits it: it starts at once, or waits for a slot
    /// on its origin like any request of the session. The response goes to `transfer` (a
    /// download) or to the task state (an upload).
    private func launch<Value: Sendable>(
        _ request: any Request, _ urlRequest: URLRequest, upload file: URL?, _ transfer: TransferState,
        _ handle: CancellationHandle, _ deadline: Duration?, _ settle: @escaping Settle<Value>,
        _ completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        let state = taskState(
            for: request, urlRequest, options: request.options, deadline: deadline, bodyFile: file, transfer: transfer
        ) { result in
            let outcome = result.flatMap { response in Result { try settle(response, transfer) } }
            transfer.close()
            transfer.events.async { completion(outcome.mapError { Self.naming($0, request) }) }
        }
        // Admitted before the handle can cancel it, so that it leaves the limiter after entering.
        admit(state)
        handle.setAction { state.fail(state.error(.cancelled, "cancelled")) }
    }

    /// Makes and resumes the first task of a transfer, where every task of the session
    /// starts (see `admit`): an upload task for a body, a data task otherwise.
    func startTransferTask(for state: TaskState) {
        let urlRequest = state.urlRequest
        var bare = urlRequest
        bare.httpBody = nil
        let task: URLSessionTask
        if let file = state.bodyFile {
            task = urlSession.uploadTask(with: bare, fromFile: file)
        } else if let body = urlRequest.httpBody {
            task = urlSession.uploadTask(with: bare, from: body)
        } else {
            task = urlSession.dataTask(with: urlRequest)
        }
        run(task, for: state)
    }

    private static func naming(_ error: any Error, _ request: any Request) -> any Error {
        (error as? FetchError)?.naming(method: request.method, url: request.url) ?? error
    }
}
