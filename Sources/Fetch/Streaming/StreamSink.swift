import Foundation

/// Where a streamed call's body goes as it arrives: the bridge between the performer at the
/// bottom of a stack and the code reading the stream at the top.
///
/// ``RequestPerforming/stream(_:acceptingAnyStatus:bufferSize:maximumLineLength:)`` and
/// ``RequestPerforming/stream(_:acceptingAnyStatus:bufferSize:onResponse:onChunk:completion:)``
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
/// The sink holds at most about ``bufferSize`` bytes that the reader has not taken; past
/// that it asks the performer to stop reading (``Session`` does), and it never drops bytes.
public final class StreamSink: @unchecked Sendable {
    // `lock` guards every `var` below; the `let`s are immutable. The pressure handler is
    // called under `lock` so that its calls keep their order; it takes only a leaf lock of
    // its own (``DeliveryQueue``'s condition).
    private let lock = NSLockShim()
    /// The default ``bufferSize``: 2 MiB.
    public static let defaultBufferSize = 2 << 20

    /// How many unread bytes make the sink ask the performer to stop reading.
    public let bufferSize: Int
    /// Whether a head with a status other than 2xx is delivered like any other; when not,
    /// the call fails with ``FetchError/Code-swift.enum/httpStatus``.
    public let acceptsAnyStatus: Bool
    private let reader: Reader

    private var head: Response?
    private var deliversBody = false
    private var chunks: [Data] = []
    private var firstChunk = 0
    private var unread = 0
    private var end: Result<Response, any Error>?
    private var endTaken = false
    private var closed = false
    private var pressure = Pressure.none
    private var pressureHandler: (@Sendable (_ from: Pressure, _ to: Pressure) -> Void)?
    private var headWaiters: [CheckedContinuation<Response, any Error>] = []
    private var chunkWaiter: CheckedContinuation<Data?, any Error>?
    private var draining = false
    private var headDelivered = false
    private var queue: DispatchQueue?
    private let stopCall = CancellationHandle()
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

    /// How hard the sink asks the performer to stop reading.
    enum Pressure: Int, Comparable, Sendable {
        /// Read on.
        case none
        /// ``bufferSize`` unread bytes: stop reading, but not for long at a time.
        case soft
        /// Twice ``bufferSize``: the reader has stopped for a while; stop reading until it goes on.
        case hard

        static func < (lhs: Pressure, rhs: Pressure) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    init(bufferSize: Int, acceptsAnyStatus: Bool, reader: Reader) {
        self.bufferSize = max(1, bufferSize)
        self.acceptsAnyStatus = acceptsAnyStatus
        self.reader = reader
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

    /// Takes the next piece of the body; ignored once the reader has stopped.
    public func receive(_ data: Data) {
        guard !data.isEmpty else { return }
        let waiter: CheckedContinuation<Data?, any Error>? = lock.withLock {
            guard !closed, deliversBody, end == nil else { return nil }
            if let waiter = chunkWaiter {
                chunkWaiter = nil
                return waiter
            }
            chunks.append(data)
            unread += data.count
            updatePressure()
            return nil
        }
        if let waiter {
            waiter.resume(returning: data)
        } else {
            scheduleDrain()
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

    /// Calls `handler` whenever the pressure changes, under the sink's lock, so in order.
    func onPressure(_ handler: @escaping @Sendable (_ from: Pressure, _ to: Pressure) -> Void) {
        lock.withLock { pressureHandler = handler }
    }

    /// Sets the pressure from the unread bytes; under `lock`.
    private func updatePressure() {
        let next: Pressure
        if closed || end != nil {
            next = .none
        } else if unread >= 2 * bufferSize {
            next = .hard
        } else if unread >= bufferSize {
            next = max(pressure, .soft)
        } else if unread <= bufferSize / 4 {
            next = .none
        } else {
            next = pressure
        }
        guard next != pressure else { return }
        let previous = pressure
        pressure = next
        pressureHandler?(previous, next)
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
                        if !closed, !response.body.isEmpty {
                            chunks.append(response.body)
                            unread += response.body.count
                        }
                        outcome = .success(bodiless)
                    } else {
                        outcome = .failure(FetchError.httpStatus(response))
                    }
                }
                end = outcome
                updatePressure()
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

    /// Stops the stream for its reader: drops what is unread, ignores what still arrives,
    /// releases the pressure and cancels the call (which then completes as cancelled).
    func cancel() {
        let (chunkWaiter, headWaiters):
            (CheckedContinuation<Data?, any Error>?, [CheckedContinuation<Response, any Error>]) =
                lock.withLock {
                    guard !closed else { return (nil, []) }
                    closed = true
                    chunks = []
                    firstChunk = 0
                    unread = 0
                    updatePressure()
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
                let ready: Result<Data?, any Error>? = lock.withLock {
                    if closed { return endTaken ? .success(nil) : .failure(FetchError.cancelled()) }
                    if let chunk = takeChunk() { return .success(chunk) }
                    if let end {
                        if endTaken { return .success(nil) }
                        endTaken = true
                        return end.map { _ in nil }
                    }
                    chunkWaiter = waiter
                    return nil
                }
                if let ready { waiter.resume(with: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Whether the reader has seen the end, or stopped: leaving it then cancels nothing.
    var hasEnded: Bool { lock.withLock { endTaken || closed } }

    /// Takes the first unread chunk; under `lock`.
    private func takeChunk() -> Data? {
        guard firstChunk < chunks.count else { return nil }
        let chunk = chunks[firstChunk]
        firstChunk += 1
        if firstChunk == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            firstChunk = 0
        } else if firstChunk >= 64 {
            chunks.removeFirst(firstChunk)
            firstChunk = 0
        }
        unread -= chunk.count
        updatePressure()
        return chunk
    }

    /// Hands the end to a pull reader waiting for a chunk.
    private func wakeReader() {
        let delivery: (CheckedContinuation<Data?, any Error>, Result<Data?, any Error>)? = lock.withLock {
            guard let waiter = chunkWaiter, let end else { return nil }
            chunkWaiter = nil
            if let chunk = takeChunk() { return (waiter, .success(chunk)) }
            endTaken = true
            return (waiter, end.map { _ in nil })
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
                if !closed, firstChunk < chunks.count {
                    let chunk = chunks[firstChunk]
                    return .chunk(chunk)
                }
                if let end, !endTaken {
                    endTaken = true
                    return .end(end)
                }
                draining = false
                return .idle
            }
            switch step {
            case .head(let response): onHead?(response)
            case .chunk(let chunk):
                onChunk(chunk)
                lock.withLock { if !closed { _ = takeChunk() } }
            case .end(let result):
                completion(result)
            case .idle:
                return
            }
        }
    }
}
