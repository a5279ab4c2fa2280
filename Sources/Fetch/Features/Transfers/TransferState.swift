/// What `Session` tracks for one transfer besides its ``TaskState``: progress, a download's file (written by a data
/// task: URLSession's download tasks on Linux leave an unnamed partial file behind on cancellation), the temporary file
/// a form is uploaded from. It carries out its ``TransferMachine``'s effects; file I/O never runs under its lock.
final class TransferState: TaskKindHandler, Sendable {
    private let machine: Locked<TransferMachine>
    /// `nil` for an upload.
    private let staged: StagedDownload?
    /// Delivers progress reports and then the completion, in order.
    let events: DispatchQueue
    private let progress: (@Sendable (TransferProgress) -> Void)?
    /// A file made for this transfer only (an encoded form), deleted when it ends.
    let uploadFile: URL?
    private let keepsPartial: Locked<Bool>?

    init(
        staged: StagedDownload?, uploadFile: URL?, uploadLength: Int64?,
        progress: (@Sendable (TransferProgress) -> Void)?, keepsPartial: Locked<Bool>? = nil, queue: DispatchQueue
    ) {
        machine = Locked(
            TransferMachine(
                downloads: staged != nil, url: staged?.requestURL, asked: staged?.resume, uploadLength: uploadLength))
        self.staged = staged
        self.uploadFile = uploadFile
        self.progress = progress
        self.keepsPartial = keepsPartial
        events = DispatchQueue(label: "Fetch.Session.transfer", target: queue)
    }

    /// Opens a download's partial file; `options` is `nil` for a plain call whose body is streamed from files.
    convenience init(
        _ request: any Request, _ options: TransferOptions?, sending urlRequest: inout URLRequest,
        queue: DispatchQueue
    ) throws {
        let form = request.body?.streamedForm.map { _ in
            FileManager.default.temporaryDirectory.appendingPathComponent("fetch-upload-\(UUID().uuidString).multipart")
        }
        self.init(
            staged: try options?.destination.map { try StagedDownload($0, for: request, sending: &urlRequest) },
            uploadFile: form, uploadLength: request.body?.knownLength, progress: options?.progress,
            keepsPartial: options?.keepsPartial, queue: queue)
    }

    var takesBody: Bool { machine.withLock { $0.downloads } }
    var uploadsBody: Bool { true }
    var bodyBytes: Int64 { machine.withLock { $0.received } }

    /// A 2xx body goes to the file (after the kept bytes, for a 206 that continues them), another is declined.
    func open(_ head: Response, expectedLength: Int64) -> BodyOpening {
        let length = expectedLength >= 0 ? expectedLength : nil
        return carryOut(.responded(status: head.status, headers: head.headers, length: length))
    }

    func write(_ data: Data) -> FetchError? {
        let now = DispatchTime.now().uptimeNanoseconds
        if case .failed(let error) = carryOut(.received(data, now: now)) { return error }
        return nil
    }

    func sent(total: Int64, expected: Int64) {
        carryOut(.sent(total: total, expected: expected, now: DispatchTime.now().uptimeNanoseconds))
    }

    /// Deletes a partial file that cannot be resumed and opens a fresh one; `urlRequest` loses `Range`, `If-Range`.
    func restart(_ urlRequest: inout URLRequest) throws {
        urlRequest.setValue(nil, forHTTPHeaderField: "Range")
        urlRequest.setValue(nil, forHTTPHeaderField: "If-Range")
        // Settled meanwhile (the caller cancelled): nothing is opened again.
        guard try staged?.reopen() == true else { return }
        carryOut(.restarted)
    }

    /// Stops at once, before the request fails: the partial file is kept (when asked and
    /// resumable) or deleted, and a body that had all arrived is not moved into place.
    func stop() {
        carryOut(.stop(keeping: keepsPartial?.withLock { $0 } ?? false))
    }

    /// Settles the call and closes the transfer; the completion follows the last progress report on ``events``.
    func finish(
        _ result: Result<Response, any Error>, _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        let outcome = result.flatMap { response in Result { try settle(response) } }
        let keeping = if case .failure(let error) = outcome { PartialDownload.keeps(after: error) } else { true }
        close(keepingPartial: keeping)
        events.async { completion(outcome) }
    }

    /// The call's response from the task's; throws `file`, `badServerResponse` (a resumed file shorter than its
    /// `Content-Range` announced), or `cancelled` when the caller cancelled first.
    func settle(_ response: Response) throws -> Response {
        var settled = response
        for effect in machine.withLock({ $0.handle(.settle(status: response.status)) }) {
            switch effect {
            case .fail(let error):
                throw error
            case .commit(let length, let total, let whole):
                settled.fileURL = try staged?.commit(length: length)
                deliver(.finished(total))
                // A 416 said the partial file was the whole body: the call has it all.
                if whole { settled.status = 200 }
            case .report(let report):
                deliver(report)
            default:
                break
            }
        }
        return settled
    }

    /// Deletes the upload file, and the partial download unless `keepingPartial` and resumable; safe to call again.
    func close(keepingPartial: Bool = false) {
        carryOut(.close(keepingPartial: keepingPartial))
        if let uploadFile { unlink(uploadFile.path) }
    }

    /// Carries out the machine's effects with no lock held but the file's: the request goes on, fails or starts over.
    @discardableResult
    private func carryOut(_ event: TransferMachine.Event) -> BodyOpening {
        for effect in machine.withLock({ $0.handle(event) }) {
            switch effect {
            case .begin(let offset, let record):
                do { try staged?.begin(at: offset, record: record) } catch { return failWriting(error) }
            case .startOver:
                return .startOver
            case .decline:
                return .declined
            case .fail(let error):
                return .failed(error)
            case .write(let data):
                do { try staged?.append(data) } catch { return failWriting(error) }
            case .report(let report):
                deliver(report)
            case .end(let keeping):
                staged?.end(keeping: keeping)
            case .commit:
                break
            }
        }
        return .accepted
    }

    private func failWriting(_ error: any Error) -> BodyOpening {
        carryOut(.writeFailed)
        return .failed(error as? FetchError ?? FetchError(.file, reason: "\(error)", underlying: error))
    }

    /// A report that runs once the transfer has ended is dropped, unless it is the last: none follows the completion.
    private func deliver(_ report: TransferProgress) {
        guard let progress else { return }
        events.async { [machine] in
            guard report.isFinished || machine.withLock({ $0.isLive }) else { return }
            progress(report)
        }
    }
}
