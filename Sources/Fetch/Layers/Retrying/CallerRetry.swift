/// The caller's side of one attempt of a call made with
/// ``RequestPerforming/performRetryable(_:scheduler:completion:)``: the attempt number and
/// a way to send the same request again.
public struct CallerRetry: Sendable {
    /// The call the attempt belongs to.
    let loop: RetryLoop
    /// Which attempt just finished: 1 for the first, as in ``RetryPolicy/Attempt/number``.
    public let attempt: Int
    /// What the attempt produced, for a policy to judge.
    let result: Result<Response, any Error>

    /// Sends the same request once more after `delay`, unless `maxAttempts` attempts have
    /// been made or the call was cancelled. The completion is called again with that
    /// attempt's result.
    ///
    /// `maxAttempts` counts attempts, the first included, as ``RetryPolicy``'s `maxAttempts`
    /// does: `retry(maxAttempts: 3)` sends a request at most three times, so at most two
    /// retries.
    /// - Parameters:
    ///   - maxAttempts: the most attempts in all, the first included.
    ///   - delay: the wait before sending, through the call's scheduler.
    /// - Returns: whether another attempt is on its way.
    @discardableResult
    public func retry(maxAttempts: Int, delay: Duration = .zero) -> Bool {
        attempt < maxAttempts && loop.retry(after: attempt, delay: delay, result: result)
    }

    /// Sends the same request once more if `policy` decides so for this attempt, after the
    /// delay it names. The policy's budget is not drawn on: it counts the calls of the
    /// retrying layer (``RequestPerforming/retrying(_:scheduler:)``). The policy is not asked
    /// when no retry could go out (the call was cancelled, or this attempt was already retried).
    /// - Returns: whether another attempt is on its way.
    @discardableResult
    public func retry(following policy: RetryPolicy) -> Bool { retry(following: policy, asPerformer: false) }

    /// Sends the same request once more if `policy` decides so. `asPerformer` retries as
    /// the retrying layer does: a ``RetryPolicy/Decision/retry`` goes out at once, without
    /// the scheduler, and every retry draws on the policy's budget.
    /// - Returns: whether another attempt is on its way.
    func retry(following policy: RetryPolicy, asPerformer: Bool) -> Bool {
        guard loop.awaitsDecision(on: attempt) else { return false }
        let delay: Duration?
        switch policy.decide(RetryPolicy.Attempt(number: attempt, request: loop.request, result: result)) {
        case .stop: return false
        case .retry: delay = asPerformer ? nil : .zero
        case .retryAfter(let wait): delay = wait
        }
        guard !asPerformer || (policy.budget?.withdraw() ?? true) else { return false }
        return loop.retry(after: attempt, delay: delay, result: result)
    }
}

extension RequestPerforming {
    /// Performs `request` and lets the completion decide, attempt by attempt, whether to
    /// send it again:
    ///
    /// ```swift
    /// api.performRetryable(request) { result, retry in
    ///     let result = result.requiringSuccess()       // a 503 is a failure from here on
    ///     if case .failure = result, retry.retry(maxAttempts: 3, delay: .seconds(1)) { return }
    ///     show(result)
    /// }
    /// ```
    ///
    /// Every status is a `.success(Response)` at this level, as for `perform`: without
    /// `requiringSuccess()` a 503 is not a failure and is not retried.
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
        performRetryable(request, scheduler: scheduler, through: self, completion: completion)
    }

    /// ``performRetryable(_:scheduler:completion:)``, with `performer`, this performer as the
    /// caller holds it, which each attempt goes to and which resolves the URL a cancellation
    /// names: a layer passes the `base` it holds, which costs no copy of this performer.
    func performRetryable(
        _ request: any Request, scheduler: any Scheduler, through performer: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>, CallerRetry) -> Void
    ) -> any Cancellable {
        let loop = RetryLoop(request: request, through: performer, scheduler: scheduler, report: completion)
        loop.start()
        // Weakly: the attempt in flight, the wait or a `CallerRetry` holds the loop while it
        // can still do something, and a handle kept after the end must not keep the loop's
        // `report`, and with it the caller's completion, in memory.
        return CancellationHandle { [weak loop] in loop?.cancel() }
    }
}
