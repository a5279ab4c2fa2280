import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Performs a call that moves a body between a file and the network: a download or an
    /// upload (`transfer`, from ``RequestOptions/kind``), or a plain call whose body is
    /// streamed from files (`transfer` `nil`).
    ///
    /// A download's body is written to disk as it arrives, in writes of 256 KiB, so memory
    /// stays bounded whatever its size; a 2xx response comes back with the file in
    /// ``Response/fileURL``, another status with the first 64 KiB of its body and no file.
    /// A file body is read from disk as it is sent; a form with file parts is first written
    /// to a temporary file chunk by chunk (so it has a `Content-Length`), which is deleted
    /// when the call ends. A transfer has no overall deadline unless the request sets
    /// ``RequestOptions/deadline`` (a streamed body sent without one has the session's); the
    /// idle timeout still applies. Progress and the completion come on the completion
    /// queue, in order.
    func performTransfer(
        _ request: any Request, options: RequestOptions, transfer: TransferOptions?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let deadline = transfer == nil ? options.deadline ?? configuration.deadline : options.deadline
        let download = transfer?.destination != nil
        return startTransfer(
            request, options: options, to: transfer?.destination, progress: transfer?.progress, deadline: deadline,
            settle: { response, state in
                guard download else {
                    state.finishUpload(status: response.status)
                    return response
                }
                var settled = response
                if let kept = state.keptErrorBody {
                    settled.body = kept
                } else {
                    settled.fileURL = try state.commitDownload()
                    // A 416 said the partial file was the whole body: the call has it all.
                    if state.answeredWhole { settled.status = 200 }
                }
                return settled
            },
            completion: completion
        )
    }

    /// Turns a task's response into the transfer's; runs on the completion queue.
    private typealias Settle = @Sendable (Response, TransferState) throws -> Response

    /// Checks and prepares a transfer, encodes a form with file parts to a temporary file
    /// if there is one, then starts the task.
    private func startTransfer(
        _ request: any Request, options: RequestOptions, to destination: DownloadDestination?,
        progress: (@Sendable (TransferProgress) -> Void)?, deadline: Duration?,
        settle: @escaping Settle, completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let handle = CancellationHandle()
        var urlRequest: URLRequest
        let transfer: TransferState
        let form = request.body?.streamedForm
        let formFile = form.map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("fetch-upload-\(UUID().uuidString).multipart")
        }
        do {
            urlRequest = try prepare(request, options: options)
            transfer = TransferState(
                staged: try destination.map { try StagedDownload($0, for: request, sending: &urlRequest) },
                uploadFile: formFile,
                uploadLength: request.body?.knownLength, progress: progress, queue: queue(for: options)
            )
        } catch {
            let named = Self.naming(error, request)
            queue(for: options).async { completion(.failure(named)) }
            return handle
        }
        let sent = urlRequest
        guard let form, let formFile else {
            launch(request, sent, upload: request.body?.fileURL, transfer, handle, deadline, settle, completion)
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
            self.launch(request, sent, upload: formFile, transfer, handle, deadline, settle, completion)
            // A cancelAll between the check above and the admission did not see this upload:
            // it bumped the count before looking, so the count tells.
            if isCancelled() { handle.cancel() }
        }
        return handle
    }

    /// Makes the transfer's task state and admits it: it starts at once, or waits for a slot
    /// on its origin like any request of the session. The response goes to `transfer` (a
    /// download) or to the task state (an upload).
    private func launch(
        _ request: any Request, _ urlRequest: URLRequest, upload file: URL?, _ transfer: TransferState,
        _ handle: CancellationHandle, _ deadline: Duration?, _ settle: @escaping Settle,
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        let state = taskState(
            for: request, urlRequest, options: request.options, deadline: deadline, bodyFile: file, transfer: transfer
        ) { result in
            if case .failure(let error as FetchError) = result, error.reason == TransferState.startOver.reason,
                transfer.startsOver
            {
                transfer.close()
                self.startOver(request, urlRequest, transfer, handle, deadline, settle, completion)
                return
            }
            let outcome = result.flatMap { response in Result { try settle(response, transfer) } }
            transfer.close(keepingPartial: Self.keepsPartial(after: outcome))
            // The handle's action holds this call's state, whose completion (this closure)
            // holds the handle: dropped here, or every finished transfer stayed in memory
            // with its 256 KiB write buffer, completion included.
            handle.release()
            transfer.events.async { completion(outcome.mapError { Self.naming($0, request) }) }
        }
        // Admitted before the handle can cancel it, so that it leaves the limiter after entering.
        admit(state)
        let keepSwitch = request.options.transfer?.keepSwitch
        handle.setAction {
            // The file is settled before the call fails, so the caller finds it kept or gone.
            transfer.stop(keeping: keepSwitch?.keepsPartial ?? false)
            state.cancel()
        }
    }

    /// Whether a download that ended with `outcome` keeps its partial file for a resume (when
    /// it can be resumed): after a lost connection and the like, and after a response that was
    /// not written to it (a 503, say: a retry resumes).
    private static func keepsPartial(after outcome: Result<Response, any Error>) -> Bool {
        switch outcome {
        case .success: return true
        case .failure(let error): return PartialDownload.keeps(after: error)
        }
    }

    /// Sends a download again from the first byte, once its partial file turned out not to
    /// continue the resource (a 416, a 206 of another version; see ``ResumeAnswer/startOver``):
    /// the same request without `Range` and `If-Range`, with the same handle and completion.
    private func startOver(
        _ request: any Request, _ urlRequest: URLRequest, _ previous: TransferState, _ handle: CancellationHandle,
        _ deadline: Duration?, _ settle: @escaping Settle,
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        var fresh = urlRequest
        fresh.setValue(nil, forHTTPHeaderField: "Range")
        fresh.setValue(nil, forHTTPHeaderField: "If-Range")
        let transfer: TransferState
        do {
            let staged = try request.options.transfer?.destination.map {
                try StagedDownload($0, for: request, sending: &fresh)
            }
            transfer = TransferState(
                staged: staged, uploadFile: nil, uploadLength: nil,
                progress: request.options.transfer?.progress, queue: queue(for: request.options))
        } catch {
            let named = Self.naming(error, request)
            previous.events.async { completion(.failure(named)) }
            return
        }
        launch(request, fresh, upload: nil, transfer, handle, deadline, settle, completion)
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
        (error as? FetchError)?.naming(request) ?? error
    }
}

extension RequestOptions {
    /// What a download or an upload carries; `nil` for the other kinds.
    fileprivate var transfer: TransferOptions? {
        switch kind {
        case .download(let transfer), .upload(let transfer): transfer
        case .plain, .stream: nil
        }
    }
}
