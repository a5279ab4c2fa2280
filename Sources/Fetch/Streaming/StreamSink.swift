import Foundation

/// Where a streamed call's body goes as it arrives: the bridge between the performer at the
/// bottom of a stack and the code reading the stream at the top.
///
/// ``RequestPerforming/stream(_:acceptingAnyStatus:bufferSize:spillLimit:maximumLineLength:)`` and
/// ``RequestPerforming/stream(_:acceptingAnyStatus:bufferSize:spillLimit:onResponse:onChunk:completion:)``
/// put one in the request's ``RequestOptions/kind`` (``CallKind/stream(_:)``) and call
/// `perform` like any call, so every layer applies. A performer that streams calls ``open(_:)`` with the head of each
/// response, then ``receive(_:)`` with each piece of the body, and completes the call with
/// the response and an empty body. A performer that does not stream needs to do nothing:
/// the response it completes with is delivered as the head and one chunk.
///
/// Layers that check responses (enhancers such as ``ContentTypeVerifier``) check the head
/// in ``open(_:)``, before the reader gets it: a head they refuse is not delivered, and the
/// call fails with their error.
///
/// Once a head has been accepted (``hasStarted``), the call is under way for its reader:
/// retry and refresh layers deliver a later failure as it is rather than sending the
/// request again.
///
/// The sink never makes the performer wait for the reader: what the reader has not taken
/// stays in memory up to ``bufferSize`` bytes, then goes to a temporary file (in the
/// temporary directory, unlinked while open) up to ``spillLimit`` bytes. A reader that falls
/// further behind gets every byte that was kept, then
/// ``FetchError/Code-swift.enum/bodyTooLarge``, and the call is cancelled: nothing is dropped
/// silently.
public final class StreamSink: @unchecked Sendable {
    // `lock` guards every `var` below and the spill file, which is written and read under it
    // (one write of at most 256 KiB, one read of at most 64 KiB); the `let`s are immutable.
    private let lock = Locked()
    /// The default ``bufferSize``: 2 MiB.
    public static let defaultBufferSize = 2 << 20
    /// The default ``spillLimit``: 256 MiB.
    public static let defaultSpillLimit = 256 << 20

    /// How many unread bytes the sink holds in memory before it keeps the rest in a file.
    public let bufferSize: Int
    /// How many unread bytes the sink keeps in its temporary file, past ``bufferSize``,
    /// before it ends the stream; 0 keeps none in a file.
    public let spillLimit: Int
    /// Whether a head with a status other than 2xx is delivered like any other; when not,
    /// the call fails with ``FetchError/Code-swift.enum/httpStatus``.
    public let acceptsAnyStatus: Bool
    private let reader: Reader
    /// Where the spill file is made: the temporary directory.
    private let spillDirectory: String

    private var head: Response?
    private var deliversBody = false
    private var buffer: StreamBuffer
    private var spill: SpillFile?
    private var end: Result<Response, any Error>?
    private var endTaken = false
    private var closed = false
    private var headWaiters: [CheckedContinuation<Response, any Error>] = []
    private var chunkWaiter: CheckedContinuation<Data?, any Error>?
    private var draining = false
    private var headDelivered = false
    private var queue: DispatchQueue?
    private let stopCall = CancellationHandle()
    /// Body bytes the sink took from the performer, and those handed to the reader.
    private var receivedBytes = 0
    private var readBytes = 0
    /// What the layers in the call's path check a head with, in the order they were added
    /// (run in reverse: the layer nearest the performer first), by number.
    private var headChecks: [(number: Int, check: HeadCheck)] = []
    private var nextHeadCheck = 0
    /// Why a check refused the last head offered, until the next one: the call's error.
    private var refusal: (any Error)?

    /// Checks, and may change, a head before the reader gets it; throws to refuse it.
    typealias HeadCheck = @Sendable (inout Response) throws -> Void

    /// Who reads the stream.
    enum Reader: Sendable {
        /// An async reader that asks for each chunk.
        case pull
        /// Callbacks: the head, each chunk, then the completion once.
        case push(
            head: (@Sendable (Response) -> Void)?, chunk: @Sendable (Data) -> Void,
            completion: @Sendable (Result<Response, any Error>) -> Void)
    }

    init(
        bufferSize: Int, spillLimit: Int = StreamSink.defaultSpillLimit, acceptsAnyStatus: Bool, reader: Reader,
        spillDirectory: String = NSTemporaryDirectory()
    ) {
        self.bufferSize = max(1, bufferSize)
        self.spillDirectory = spillDirectory
        self.spillLimit = max(0, spillLimit)
        self.acceptsAnyStatus = acceptsAnyStatus
        self.reader = reader
        buffer = StreamBuffer(memoryLimit: bufferSize, spillLimit: spillLimit)
    }

    // MARK: The performer's side

    /// Whether a head has been accepted: the reader has the response, and the call will
    /// not be sent again.
    public var hasStarted: Bool { lock.withLock { head != nil } }

    /// Takes the head of a response (status, headers; its body is ignored).
    /// - Returns: whether to hand the body to ``receive(_:)``: `true` for a 2xx status or
    ///   when the caller accepts any status; otherwise the performer completes the call
    ///   with the response and the start of its body, and the call fails with
    ///   ``FetchError/Code-swift.enum/httpStatus``.
    @discardableResult
    public func open(_ response: Response) -> Bool {
        var bodiless = response
        bodiless.body = Data()
        bodiless.isStreamed = true
        let checks: [(number: Int, check: HeadCheck)]? = lock.withLock {
            guard !closed, end == nil, head == nil else { return nil }
            refusal = nil
            return headChecks
        }
        if let checks, response.isSuccess || acceptsAnyStatus {
            do {
                for (_, check) in checks.reversed() { try check(&bodiless) }
            } catch {
                lock.withLock { refusal = error }
                return false
            }
        }
        let (accepted, waiters): (Bool, [CheckedContinuation<Response, any Error>]) = lock.withLock {
            guard !closed, end == nil else { return (false, []) }
            if head != nil { return (deliversBody, []) }
            deliversBody = bodiless.isSuccess || acceptsAnyStatus
            guard deliversBody else { return (false, []) }
            head = bodiless
            defer { headWaiters = [] }
            return (true, headWaiters)
        }
        for waiter in waiters { waiter.resume(returning: bodiless) }
        if accepted { scheduleDrain() }
        return accepted
    }

    /// Takes the next piece of the body; ignored once the reader has stopped or the stream
    /// has ended. Never waits for the reader.
    public func receive(_ data: Data) {
        guard !data.isEmpty else { return }
        enum Outcome {
            case handed(CheckedContinuation<Data?, any Error>)
            case kept
            case ended
            case ignored
        }
        let outcome: Outcome = lock.withLock {
            guard !closed, deliversBody, end == nil else { return .ignored }
            if let waiter = chunkWaiter {
                chunkWaiter = nil
                receivedBytes += data.count
                readBytes += data.count
                return .handed(waiter)
            }
            let arrival = buffer.append(data)
            if arrival != .overflow { receivedBytes += data.count }
            switch arrival {
            case .kept:
                return .kept
            case .write(let bytes, let offset):
                do {
                    let file = try spill ?? SpillFile(in: spillDirectory)
                    spill = file
                    try file.write(bytes, at: offset)
                    return .kept
                } catch {
                    spill = nil
                    end = .failure(error)
                    return .ended
                }
            case .overflow:
                end = .failure(overflow())
                return .ended
            }
        }
        switch outcome {
        case .handed(let waiter): waiter.resume(returning: data)
        case .kept: scheduleDrain()
        case .ended: endedEarly()
        case .ignored: break
        }
    }

    /// Adds a check that every head offered to ``open(_:)`` from now on passes before the
    /// reader gets it, until ``removeHeadCheck(_:)``.
    /// - Returns: the number that removes it.
    func addHeadCheck(_ check: @escaping HeadCheck) -> Int {
        lock.withLock {
            nextHeadCheck += 1
            headChecks.append((nextHeadCheck, check))
            return nextHeadCheck
        }
    }

    /// Removes the check numbered `number`.
    func removeHeadCheck(_ number: Int) {
        lock.withLock { headChecks.removeAll { $0.number == number } }
    }

    /// Has callbacks run on a serial queue that targets `target` rather than on the thread
    /// that calls ``receive(_:)``; ``Session`` asks for it, as its body arrives on
    /// URLSession's delegate queue. A no-op after the first call.
    func deliver(on target: DispatchQueue) {
        lock.withLock {
            if queue == nil { queue = DispatchQueue(label: "Fetch.stream", target: target) }
        }
    }

    /// The error that ends a stream whose reader fell behind by more than the sink keeps.
    private func overflow() -> FetchError {
        let memory = ByteCountFormatter.string(fromByteCount: Int64(bufferSize), countStyle: .binary)
        let file = ByteCountFormatter.string(fromByteCount: Int64(spillLimit), countStyle: .binary)
        return FetchError(
            .bodyTooLarge,
            reason: "the stream's reader fell behind by more than its buffer (\(memory)) and spill file (\(file)) "
                + "keep; the bytes kept were delivered, the rest was not read", response: head)
    }

    /// Stops the call once the sink has ended the stream itself (its reader fell too far
    /// behind, or the spill file failed): the reader gets what is kept, then the error.
    private func endedEarly() {
        stopCall.cancel()
        wakeReader()
        scheduleDrain()
    }

    // MARK: The end

    /// Ends the stream with the call's result; called once, by the call's completion.
    /// A response the performer did not stream is delivered now, as the head and one chunk.
    func finish(_ result: Result<Response, any Error>) {
        let (waiters, headResult): ([CheckedContinuation<Response, any Error>], Result<Response, any Error>?) =
            lock.withLock {
                guard end == nil else { return ([], nil) }
                var outcome = result
                if case .success(var response) = result, head != nil {
                    response.isStreamed = true
                    outcome = .success(response)
                } else if case .success = result, let refusal {
                    outcome = .failure(refusal)
                } else if case .success(let response) = result, head == nil {
                    if response.isSuccess || acceptsAnyStatus {
                        var bodiless = response
                        bodiless.body = Data()
                        bodiless.isStreamed = true
                        head = bodiless
                        deliversBody = true
                        // Held in memory already: whatever its size, it stays there.
                        if !closed, !response.body.isEmpty {
                            receivedBytes += response.body.count
                            _ = buffer.append(response.body)
                        }
                        outcome = .success(bodiless)
                    } else {
                        outcome = .failure(FetchError.httpStatus(response))
                    }
                }
                end = outcome
                defer { headWaiters = [] }
                return (headWaiters, head.map { .success($0) } ?? outcome)
            }
        // The call has ended, so there is nothing left to cancel; and its handle holds the
        // call's state, whose completion holds this sink: kept, every finished stream stayed
        // in memory.
        stopCall.release()
        for waiter in waiters { waiter.resume(with: headResult!) }
        wakeReader()
        scheduleDrain()
    }

    /// Stops the stream for its reader: drops what is unread (and the spill file), ignores
    /// what still arrives and cancels the call (which then completes as cancelled).
    func cancel() {
        let (chunkWaiter, headWaiters):
            (CheckedContinuation<Data?, any Error>?, [CheckedContinuation<Response, any Error>]) =
                lock.withLock {
                    guard !closed else { return (nil, []) }
                    closed = true
                    _ = buffer.removeAll()
                    spill = nil
                    defer {
                        self.chunkWaiter = nil
                        self.headWaiters = []
                    }
                    return (self.chunkWaiter, self.headWaiters)
                }
        stopCall.cancel()
        chunkWaiter?.resume(throwing: FetchError.cancelled())
        for waiter in headWaiters { waiter.resume(throwing: FetchError.cancelled()) }
    }

    /// Sets what ``cancel()`` does to the call: cancel its handle.
    func cancelling(_ call: any Cancellable) {
        stopCall.setAction { call.cancel() }
    }

    // MARK: The pull reader

    /// Waits for the head. Cancelling the waiting `Task` cancels the stream.
    /// - Throws: the call's error, ``FetchError/Code-swift.enum/httpStatus`` for a status
    ///   the caller does not accept.
    func response() async throws -> Response {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Response, any Error>) in
                let ready: Result<Response, any Error>? = lock.withLock {
                    if closed { return .failure(FetchError.cancelled()) }
                    if let head { return .success(head) }
                    if let end { return end }
                    headWaiters.append(waiter)
                    return nil
                }
                if let ready { waiter.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The next chunk, `nil` at the end. Cancelling the waiting `Task` cancels the stream.
    /// - Throws: the error that ended the stream (once; `nil` follows), or
    ///   ``FetchError/Code-swift.enum/cancelled``.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Data?, any Error>) in
                let (ready, failed): (Result<Data?, any Error>?, Bool) = lock.withLock {
                    if closed { return (endTaken ? .success(nil) : .failure(FetchError.cancelled()), false) }
                    let (chunk, failed) = takeChunk()
                    if let chunk { return (.success(chunk), false) }
                    if let end {
                        if endTaken { return (.success(nil), failed) }
                        endTaken = true
                        return (end.map { _ in nil }, failed)
                    }
                    chunkWaiter = waiter
                    return (nil, false)
                }
                if failed { stopCall.cancel() }
                if let ready { waiter.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Where the stream stands, for the log line of its call.
    var tally: StreamTally {
        lock.withLock {
            StreamTally(
                head: head, received: receivedBytes, read: readBytes, stoppedByReader: closed,
                acceptsAnyStatus: acceptsAnyStatus)
        }
    }

    /// Whether the reader has seen the end, or stopped: leaving it then cancels nothing.
    var hasEnded: Bool { lock.withLock { endTaken || closed } }

    /// Takes the first unread chunk, from memory or from the spill file; under `lock`.
    /// - Returns: the chunk, `nil` when none is held; and whether the spill file failed
    ///   (then the stream has ended with that error, and the call is to be stopped).
    private func takeChunk() -> (Data?, failed: Bool) {
        switch buffer.next() {
        case .none:
            return (nil, false)
        case .chunk(let chunk):
            readBytes += chunk.count
            return (chunk, false)
        case .read(let offset, let count, let thenEmpty):
            guard let spill else {
                // A write failed and ended the stream with its error: the file's bytes are
                // not all there, so none of it is read, and the reader gets that error next.
                _ = buffer.removeAll()
                return (nil, false)
            }
            do {
                let chunk = try spill.read(at: offset, count: count)
                if thenEmpty { spill.empty() }
                readBytes += chunk.count
                return (chunk, false)
            } catch {
                _ = buffer.removeAll()
                self.spill = nil
                end = .failure(error)
                return (nil, true)
            }
        }
    }

    /// Hands the end to a pull reader waiting for a chunk.
    private func wakeReader() {
        let delivery: (CheckedContinuation<Data?, any Error>, Result<Data?, any Error>)? = lock.withLock {
            guard let waiter = chunkWaiter, let ended = end else { return nil }
            chunkWaiter = nil
            // Only an end wakes the reader, and by then the call is over or being stopped:
            // a failed read has nothing left to stop, and its error is the end now.
            if case (let chunk?, _) = takeChunk() { return (waiter, .success(chunk)) }
            endTaken = true
            return (waiter, (end ?? ended).map { _ in nil })
        }
        if let (waiter, result) = delivery { waiter.resume(with: result) }
    }

    // MARK: The push reader

    /// Runs the callbacks of a push reader: at once on this thread, or on the queue.
    private func scheduleDrain() {
        guard case .push = reader else { return }
        let (start, queue): (Bool, DispatchQueue?) = lock.withLock {
            if draining { return (false, nil) }
            draining = true
            return (true, self.queue)
        }
        guard start else { return }
        if let queue { queue.async { self.drain() } } else { drain() }
    }

    /// Delivers the head, the chunks in order, then the completion once.
    private func drain() {
        guard case .push(let onHead, let onChunk, let completion) = reader else { return }
        var stop = false
        while true {
            enum Step {
                case head(Response)
                case chunk(Data)
                case end(Result<Response, any Error>)
                case idle
            }
            let step: Step = lock.withLock {
                if let head, !headDelivered, !closed {
                    headDelivered = true
                    return .head(head)
                }
                if !closed {
                    let (chunk, failed) = takeChunk()
                    if let chunk { return .chunk(chunk) }
                    if failed { stop = true }
                }
                if let end, !endTaken {
                    endTaken = true
                    return .end(end)
                }
                draining = false
                return .idle
            }
            if stop {
                stop = false
                stopCall.cancel()
            }
            switch step {
            case .head(let response): onHead?(response)
            case .chunk(let chunk): onChunk(chunk)
            case .end(let result):
                completion(result)
            case .idle:
                return
            }
        }
    }
}
