/// One attempt of a call made with ``RequestPerforming/performRetryable(_:scheduler:completion:)``:
/// its number and a way to send the same request again.
public struct CallerRetry: Sendable {
    let loop: RetryLoop
    /// Which attempt just finished: 1 for the first, as in ``RetryPolicy/Attempt/number``.
    public let attempt: Int
    let result: Result<Response, any Error>

    /// Sends the request once more after `delay` (through the call's scheduler), unless
    /// `maxAttempts` attempts, the first included, have been made or the call was cancelled.
    /// - Returns: whether another attempt is on its way.
    @discardableResult
    public func retry(maxAttempts: Int, delay: Duration = .zero) -> Bool {
        attempt < maxAttempts && loop.retry(after: attempt, delay: delay, result: result)
    }

    /// Sends the request once more, after the delay it names, if `policy` decides so. The
    /// policy's budget is not drawn on (it counts the retrying layer's calls), and the policy
    /// is not asked when no retry could go out (cancelled, or this attempt already retried).
    /// - Returns: whether another attempt is on its way.
    @discardableResult
    public func retry(following policy: RetryPolicy) -> Bool {
        guard loop.awaitsDecision(on: attempt) else { return false }
        switch policy.decide(RetryPolicy.Attempt(number: attempt, request: loop.request, result: result)) {
        case .stop: return false
        case .retry: return loop.retry(after: attempt, delay: .zero, result: result)
        case .retryAfter(let delay): return loop.retry(after: attempt, delay: delay, result: result)
        }
    }
}

extension RequestPerforming {
    /// Performs `request` and lets the completion, called once per attempt with a ``CallerRetry``, decide whether to
    /// send it again; `scheduler` waits between attempts.
    ///
    /// Every status is a `.success(Response)` here: without `requiringSuccess()` a 503 is not retried. Cancelling
    /// stops the attempt in flight or the wait, calls the completion once with ``FetchError/Code-swift.enum/cancelled``
    /// (unless the last attempt was already delivered), and `retry` answers `false` from then on.
    @discardableResult
    public func performRetryable(
        _ request: any Request,
        scheduler: any Scheduler = DispatchQueueScheduler(),
        completion: @escaping @Sendable (Result<Response, any Error>, CallerRetry) -> Void
    ) -> any Cancellable {
        let loop = RetryLoop(request: request, through: self, scheduler: scheduler, report: completion)
        loop.start()
        // Weakly: while the loop can still act, the attempt, the wait or a `CallerRetry`
        // holds it; a handle kept after the end must not keep the caller's completion alive.
        return CancellationHandle { [weak loop] in loop?.cancel() }
    }
}
