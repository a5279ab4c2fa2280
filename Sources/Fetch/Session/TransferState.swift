import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `Session` tracks for one transfer besides its ``TaskState``: progress, the file a
/// download is written to, the temporary file an encoded form is uploaded from.
///
/// A download goes through a data task whose bytes this state writes to a partial file
/// that Fetch names and owns: URLSession's download tasks on Linux leave their own
/// partial `<UUID>.tmp` file behind on cancellation without ever saying its name.
final class TransferState: TaskCarrier, @unchecked Sendable {
    // `lock` guards every `var` below and every use of `writer`; the other `let`s are
    // immutable and Sendable.
    private let lock = Locked()
    /// Delivers progress reports and then the completion, in order.
    let events: DispatchQueue
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private var staged: StagedDownload?
    /// A file made for this transfer only (an encoded form), deleted when it ends.
    let uploadFile: URL?
    private let uploadLength: Int64?
    /// Whether the caller cancelled keeping the partial file (``DownloadHandle/cancelKeepingPartial()``).
    private let keepSwitch: KeepPartialSwitch?

    private var throttle = ProgressThrottle()
    private var writer: FileWriter?
    /// The bytes in a download's file: counted from its start, a resumed one included.
    private var received: Int64 = 0
    private var expected: Int64?
    private var errorBody: Data?
    private var sent: Int64 = 0
    /// No more body bytes are taken (the transfer ended or a write failed).
    private var closed = false
    /// The partial file was moved into place, kept or deleted.
    private var settled = false
    /// What the head of a download's response means for its file (``ResumeAnswer``).
    private var answer: ResumeAnswer?
    /// Whether the partial file on disk can be resumed (it has a ``PartialRecord``).
    private var resumable: Bool
    /// Whether the caller cancelled the transfer (see ``stop(keeping:)``).
    private var stopped = false

    /// Bytes gathered before one write to disk: one system call per 256 KiB rather than
    /// per 16 KiB chunk, so the delegate queue keeps up with the network.
    static let writeSize = 256 * 1024
    /// How much of a non-2xx body is kept for the error; the rest is dropped.
    static let errorBodyLimit = 64 * 1024

    /// - Parameters:
    ///   - staged: the partial file of a download; `nil` for an upload.
    ///   - uploadFile: a file to delete when the transfer ends.
    ///   - uploadLength: the body's length, when known.
    init(
        staged: StagedDownload?, uploadFile: URL?, uploadLength: Int64?,
        progress: (@Sendable (TransferProgress) -> Void)?, keepSwitch: KeepPartialSwitch? = nil, queue: DispatchQueue
    ) {
        self.staged = staged
        self.uploadFile = uploadFile
        self.uploadLength = uploadLength
        self.progress = progress
        self.keepSwitch = keepSwitch
        resumable = staged?.resume != nil
        writer = staged.map { FileWriter(descriptor: $0.handle.fileDescriptor, capacity: Self.writeSize) }
        events = DispatchQueue(label: "Fetch.Session.transfer", target: queue)
    }

    /// The transfer of `request`, a download or an upload as `options` say (`nil` for a plain
    /// call's body streamed from files), opening a download's partial file and asking
    /// `urlRequest` for the rest of it when it can be resumed. A form with file parts gets the
    /// name of its temporary file (``uploadFile``).
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
            keepSwitch: options?.keepSwitch, queue: queue)
    }

    // MARK: Download

    /// Whether the body goes to a file (a download) rather than into memory.
    var takesBody: Bool { staged != nil }
    /// A body in memory goes in an upload task, which reports progress.
    var uploadsBody: Bool { true }
    /// Body bytes of a download's current response taken so far.
    var bodyBytes: Int64 { receivedBytes }

    /// Takes the head of a download's response (see ``receive(_:)-(URLResponse)``).
    func open(_ reply: URLResponse, for state: TaskState) -> BodyOpening {
        guard let error = receive(reply) else { return .accepted }
        return lock.withLock { answer == .startOver } ? .startOver : .failed(error)
    }

    /// Takes body bytes of a download (see ``receive(_:)-(Data)``).
    func write(_ data: Data) -> FetchError? { receive(data) }

    /// Takes URLSession's count of body bytes sent (see ``sentBody(total:expectedTotal:)``).
    func sent(total: Int64, expected: Int64) { sentBody(total: total, expectedTotal: expected) }

    /// Deletes the partial file that cannot be resumed and opens a fresh one, for
    /// `urlRequest` without `Range` and `If-Range`.
    func restart(_ urlRequest: inout URLRequest, for call: any Request) throws {
        urlRequest.setValue(nil, forHTTPHeaderField: "Range")
        urlRequest.setValue(nil, forHTTPHeaderField: "If-Range")
        guard let old = lock.withLock({ staged }), case .download(let options) = call.options.kind,
            let destination = options.destination
        else { return }
        old.discard()
        let fresh = try StagedDownload(destination, for: call, sending: &urlRequest)
        lock.withLock {
            (staged, answer, resumable, closed, settled) = (fresh, nil, false, false, false)
            (received, expected, errorBody) = (0, nil, nil)
            writer = FileWriter(descriptor: fresh.handle.fileDescriptor, capacity: Self.writeSize)
        }
    }

    /// Stops for the caller, keeping the partial file when the caller asked to.
    func stop() { stop(keeping: keepSwitch?.keepsPartial ?? false) }

    /// Settles the call: a download's file moved into place (or the start of an error body),
    /// an upload's last progress; then the transfer is closed and the completion follows the
    /// last progress report on ``events``.
    func finish(
        _ result: Result<Response, any Error>, _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        let outcome = result.flatMap { response in Result { try settle(response) } }
        let keepsPartial: Bool =
            switch outcome {
            case .success: true
            case .failure(let error): PartialDownload.keeps(after: error)
            }
        close(keepingPartial: keepsPartial)
        events.async { completion(outcome) }
    }

    /// The call's response from the task's.
    private func settle(_ response: Response) throws -> Response {
        guard staged != nil else {
            finishUpload(status: response.status)
            return response
        }
        var settled = response
        if let kept = keptErrorBody {
            settled.body = kept
        } else {
            settled.fileURL = try commitDownload()
            // A 416 said the partial file was the whole body: the call has it all.
            if answeredWhole { settled.status = 200 }
        }
        return settled
    }

    /// Takes the response of a download. A 2xx body goes to the file (after what a resumed
    /// download has, for a 206 that continues it), another one into memory (up to a limit)
    /// for the error; see ``ResumeAnswer``.
    /// - Returns: the failure to fail the request with: a `Content-Range` that does not
    ///   match the request, a partial file to start over (``startOver``), a failed write.
    func receive(_ response: URLResponse) -> FetchError? {
        guard let staged = lock.withLock({ self.staged }) else { return nil }
        let http = response as? HTTPURLResponse
        let headers = http.map(HTTPHeaders.init) ?? HTTPHeaders()
        let length = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
        return lock.withLock {
            // After `close()` the file is closed and its descriptor may belong to another file.
            if closed { return nil }
            let error = begin(staged, status: http?.statusCode ?? 0, headers: headers, length: length)
            closed = error != nil
            return error
        }
    }

    /// Prepares the file for the body of a response; called under `lock`.
    private func begin(_ staged: StagedDownload, status: Int, headers: HTTPHeaders, length: Int64?) -> FetchError? {
        let answer: ResumeAnswer
        do {
            answer = try ResumeAnswer.decide(
                status: status, headers: headers, contentLength: length, asked: staged.resume)
        } catch {
            return error as? FetchError ?? FetchError(.badServerResponse, reason: "\(error)")
        }
        self.answer = answer
        errorBody = nil
        switch answer {
        case .notABody:
            errorBody = Data()
            return nil
        case .startOver:
            return Self.startOver
        case .whole(let total):
            (received, expected) = (total, total)
            return nil
        case .fresh(let total), .append(_, let total):
            return write(to: staged) {
                let (offset, canResume) = try staged.begin(answer, headers: headers)
                try writer?.restart(at: offset)
                (received, expected, resumable) = (offset, total, canResume)
                if offset > 0 { deliver(TransferProgress(completedBytes: offset, expectedBytes: total)) }
            }
        }
    }

    /// What a response that cannot continue the partial file ends the attempt with; the
    /// request is then sent again from the first byte (``open(_:for:)``).
    static let startOver = FetchError(.badServerResponse, reason: "the partial download cannot be resumed")

    /// Whether a 416 said the partial file already holds the whole body.
    var answeredWhole: Bool {
        lock.withLock {
            if case .whole = answer { return true }
            return false
        }
    }

    /// Takes body bytes of a download.
    /// - Returns: the failure to fail the request with, when a write failed.
    func receive(_ data: Data) -> FetchError? {
        guard let staged = lock.withLock({ self.staged }) else { return nil }
        return lock.withLock {
            if closed { return nil }
            if var kept = errorBody {
                kept.append(data.prefix(max(0, Self.errorBodyLimit - kept.count)))
                errorBody = kept
                return nil
            }
            // A 416's body (the file is whole already) goes nowhere.
            if case .whole = answer { return nil }
            received += Int64(data.count)
            // A compressed body decodes to more bytes than its announced length.
            if let known = expected, received > known { expected = nil }
            if let error = write(to: staged, { try writer?.append(data) }) {
                closed = true
                return error
            }
            if throttle.allows(at: DispatchTime.now().uptimeNanoseconds) {
                deliver(TransferProgress(completedBytes: received, expectedBytes: expected))
            }
            return nil
        }
    }

    /// Runs a write of the file writer; called under `lock`.
    /// - Returns: the failure, named, if the write failed.
    private func write(to staged: StagedDownload, _ body: () throws -> Void) -> FetchError? {
        do {
            try body()
            return nil
        } catch {
            return FetchError(
                .file, reason: "could not write \(staged.files.bytesURL.path): \(error)", underlying: error)
        }
    }

    /// Body bytes of a download's current response taken so far.
    var receivedBytes: Int64 { lock.withLock { received } }

    /// The kept start of a non-2xx body, or `nil` when the status was 2xx.
    var keptErrorBody: Data? { lock.withLock { errorBody } }

    /// Writes what is left, moves the file into place and reports completion.
    /// - Returns: the file.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when it cannot be written or moved;
    ///   ``FetchError/Code-swift.enum/badServerResponse`` when a resumed file does not have
    ///   the length its `Content-Range` announced; ``FetchError/Code-swift.enum/cancelled``
    ///   when the caller cancelled first.
    func commitDownload() throws -> URL {
        guard let staged = lock.withLock({ self.staged }) else {
            throw FetchError(.file, reason: "the transfer has no file")
        }
        // Stopped or closed: `stop` or `close` settles the file.
        let (total, length, error): (Int64, Int64?, FetchError?) = try lock.withLock {
            if stopped { throw FetchError.cancelled() }
            if closed { throw FetchError(.file, reason: "the download was stopped before it completed") }
            defer {
                closed = true
                settled = true
            }
            var length: Int64?
            switch answer {
            case .append(_, let total): length = total
            case .whole(let total): length = total
            default: length = nil
            }
            return (received, length, write(to: staged) { try writer?.flush() })
        }
        if let error {
            staged.discard()
            throw error
        }
        let url = try staged.commit(length: length)
        deliver(.finished(total))
        return url
    }

    /// Ends a download the caller cancelled, at once, before its request fails: no more
    /// bytes are written, and the partial file is kept for a later resume (when `keeping`
    /// and it can be resumed) or deleted, before the caller hears of the cancellation.
    /// A download whose body had all arrived completes with
    /// ``FetchError/Code-swift.enum/cancelled`` instead of moving the file into place.
    func stop(keeping: Bool) {
        guard let staged = lock.withLock({ self.staged }) else { return }
        let keep: Bool? = lock.withLock {
            stopped = true
            if settled { return nil }
            defer {
                closed = true
                settled = true
            }
            return keeping && flushesForResume()
        }
        guard let keep else { return }
        if keep { staged.keep() } else { staged.discard() }
    }

    /// Whether the partial file can be kept for a resume, after writing out what is
    /// gathered; called under `lock`, before `closed` is set.
    private func flushesForResume() -> Bool {
        guard resumable, !closed else { return false }
        do {
            try writer?.flush()
            return true
        } catch {
            return false
        }
    }

    // MARK: Upload

    /// Takes URLSession's count of body bytes sent.
    func sentBody(total: Int64, expectedTotal: Int64) {
        lock.withLock {
            sent = total
            guard !closed, throttle.allows(at: DispatchTime.now().uptimeNanoseconds) else { return }
            let announced = expectedTotal > 0 ? expectedTotal : nil
            deliver(TransferProgress(completedBytes: total, expectedBytes: uploadLength ?? announced))
        }
    }

    /// Reports a finished upload: the whole body after a 2xx answer, otherwise what
    /// URLSession counted as sent (a server may answer, say 413, before reading it all).
    func finishUpload(status: Int) {
        lock.withLock {
            let total = (200..<300).contains(status) ? uploadLength ?? sent : sent
            deliver(.finished(total))
        }
    }

    // MARK: End

    /// Ends the transfer: deletes the temporary upload file, and the partial download unless
    /// `keepingPartial` and it can be resumed (then it is kept, with what is gathered written
    /// out); later bytes are dropped. Safe to call more than once.
    func close(keepingPartial: Bool = false) {
        let keep: Bool? = lock.withLock {
            if settled { return nil }
            defer {
                closed = true
                settled = true
            }
            return keepingPartial && flushesForResume()
        }
        if let staged = lock.withLock({ self.staged }), let keep {
            if keep { staged.keep() } else { staged.discard() }
        }
        if let uploadFile { unlink(uploadFile.path) }
    }

    /// Queues `report` ahead of anything queued later. Called under `lock`, so that a
    /// report taken before `close()` is queued before the completion, never after it.
    private func deliver(_ report: TransferProgress) {
        guard let progress else { return }
        events.async { progress(report) }
    }
}
