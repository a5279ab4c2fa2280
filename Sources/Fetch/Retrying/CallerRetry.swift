/// The caller's side of one attempt of a call made with
/// ``RequestPerforming/performRetryable(_:scheduler:completion:)``: the attempt number and
/// a way to send the same request again.
public struct CallerRetry: Sendable {
    private let call: RetryableCall
    /// Which attempt just finished: 1 for the first, as in ``RetryPolicy/Attempt/number``.
    public let attempt: Int
    private let result: Result<Response, any Error>

    init(call: RetryableCall, attempt: Int, result: Result<Response, any Error>) {
        self.call = call
        self.attempt = attempt
        self.result = result
    }

    /// Sends the same request once more after `delay`, unless `max` attempts have been made
    /// or the call was cancelled. The completion is called again with that attempt's result.
    /// - Parameters:
    ///   - max: the most attempts in all, the first included.
    ///   - delay: the wait before sending, through the call's scheduler.
    /// - Returns: whether another attempt is on its way.
    @discardableResult
    public func retry(max: Int, delay: Duration = .zero) -> Bool {
        guard attempt < max else { return false }
        return call.retry(after: attempt, delay: delay)
    }

    /// Sends the same request once more if `policy` decides so for this attempt, after the
    /// delay it names. The policy's budget is not drawn on: it counts the calls of a
    /// ``RetryingPerformer``.
    /// - Returns: whether another attempt is on its way.
    @discardableResult
    public func retry(following policy: RetryPolicy) -> Bool {
        switch policy.decide(RetryPolicy.Attempt(number: attempt, request: call.request, result: result)) {
        case .stop: return false
        case .retry: return call.retry(after: attempt, delay: .zero)
        case .retryAfter(let delay): return call.retry(after: attempt, delay: delay)
        }
    }
}

extension RequestPerforming {
    /// Performs `request` and lets the completion decide, attempt by attempt, whether to
    /// send it again:
    ///
    /// ```swift
    /// api.performRetryable(request) { result, retry in
    ///     if case .failure = result, retry.retry(max: 3, delay: .seconds(1)) { return }
    ///     show(result)
    /// }
    /// ```
    ///
    /// The completion is called once per attempt. Cancelling stops the attempt in flight or
    /// the wait; the completion is then called once with
    /// ``FetchError/Code-swift.enum/cancelled`` (unless the last attempt was already
    /// delivered), and `retry` answers `false` from then on.
    /// - Parameters:
    ///   - request: what to send, each time.
    ///   - scheduler: waits between attempts; real time by default.
    ///   - completion: gets each attempt's result and its ``CallerRetry``.
    /// - Returns: a handle that cancels the call.
    @discardableResult
    public func performRetryable(
        _ request: any Request,
        scheduler: any Scheduler = DispatchQueueScheduler(),
        completion: @escaping @Sendable (Result<Response, any Error>, CallerRetry) -> Void
    ) -> any Cancellable {
        let call = RetryableCall(request: request, scheduler: scheduler, completion: completion) { request, done in
            perform(request, completion: done)
        }
        call.start(attempt: 1)
        return call
    }
}

/// The state of a call made with `performRetryable`: which attempt runs, and whether it is
/// in flight, delivered (and so retryable), waiting to be resent, or over.
final class RetryableCall: Cancellable, @unchecked Sendable {
    private enum Phase {
        case notStarted
        case inFlight(attempt: Int, LayerCall)
        case delivered(attempt: Int)
        case waiting(attempt: Int, (any Cancellable)?)
        case over
    }

    // `lock` guards `phase`; everything else is immutable.
    private let lock = NSLockShim()
    private var phase = Phase.notStarted
    let request: any Request
    private let scheduler: any Scheduler
    private let completion: @Sendable (Result<Response, any Error>, CallerRetry) -> Void
    private let send: @Sendable (any Request, @escaping @Sendable (Result<Response, any Error>) -> Void) -> any Cancellable

    init(
        request: any Request, scheduler: any Scheduler,
        completion: @escaping @Sendable (Result<Response, any Error>, CallerRetry) -> Void,
        send: @escaping @Sendable (any Request, @escaping @Sendable (Result<Response, any Error>) -> Void) -> any Cancellable
    ) {
        self.request = request
        self.scheduler = scheduler
        self.completion = completion
        self.send = send
    }

    /// Sends attempt `attempt`: the first, or the one the call is waiting for.
    func start(attempt: Int) {
        let call = LayerCall(request: request) { [self] result in deliver(result, attempt: attempt) }
        let go: Bool = lock.withLock {
            switch phase {
            case .notStarted where attempt == 1: break
            case .waiting(let next, _) where next == attempt: break
            default: return false
            }
            phase = .inFlight(attempt: attempt, call)
            return true
        }
        guard go else { return }
        call.run { send(request) { call.finish($0) } }
    }

    private func deliver(_ result: Result<Response, any Error>, attempt: Int) {
        let current: Bool = lock.withLock {
            guard case .inFlight(let running, _) = phase, running == attempt else { return false }
            phase = .delivered(attempt: attempt)
            return true
        }
        if current { completion(result, CallerRetry(call: self, attempt: attempt, result: result)) }
    }

    /// Schedules attempt `attempt + 1` if `attempt` is the last one delivered.
    func retry(after attempt: Int, delay: Duration) -> Bool {
        let allowed: Bool = lock.withLock {
            guard case .delivered(let delivered) = phase, delivered == attempt else { return false }
            phase = .waiting(attempt: attempt + 1, nil)
            return true
        }
        guard allowed else { return false }
        let wait = scheduler.schedule(after: delay) { [self] in start(attempt: attempt + 1) }
        let cancelWait: Bool = lock.withLock {
            switch phase {
            case .waiting(let next, nil) where next == attempt + 1:
                phase = .waiting(attempt: next, wait)
                return false
            case .over: return true
            default: return false
            }
        }
        if cancelWait { wait.cancel() }
        return true
    }

    /// Ends the call: cancels what is in flight or waiting and reports the cancellation.
    func cancel() {
        let (inFlight, attempt): ((any Cancellable)?, Int?) = lock.withLock {
            defer { phase = .over }
            switch phase {
            case .inFlight(let attempt, let call): return (call, attempt)
            case .waiting(let attempt, let wait): return (wait, attempt)
            case .notStarted, .delivered, .over: return (nil, nil)
            }
        }
        guard let attempt else { return }
        inFlight?.cancel()
        let cancelled = Result<Response, any Error>.failure(FetchError.cancelled(request))
        completion(cancelled, CallerRetry(call: self, attempt: attempt, result: cancelled))
    }
}
