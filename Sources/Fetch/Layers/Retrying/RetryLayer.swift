/// The layer that tries a call again as its ``RetryPolicy`` decides, waiting between attempts
/// through a ``Scheduler``, never by blocking a thread. Made by
/// ``RequestPerforming/retrying(_:scheduler:)``.
///
/// The caller's completion runs once, with the last attempt's result. It runs on the same
/// engine as ``RequestPerforming/performRetryable(_:scheduler:completion:)``, with the policy
/// as the caller that decides after each attempt.
struct RetryLayer: Layer {
    /// What decides whether to try again.
    let policy: RetryPolicy
    /// What waits between attempts.
    let scheduler: any Scheduler

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        policy.budget?.recordCall()
        let loop = RetryLoop(request: request, through: next, scheduler: scheduler) { [policy] result, retry in
            if !retry.retry(following: policy, asPerformer: true) { completion(result) }
        }
        loop.start()
        return loop
    }
}

extension RequestPerforming {
    /// This performer, trying calls again as `policy` decides.
    ///
    /// ```swift
    /// let api = Session().retrying(.exponential(maxAttempts: 3))
    /// ```
    ///
    /// The caller's completion runs once, with the last attempt's result; cancelling the call
    /// cancels the attempt in flight or the wait. Every response says how many attempts came
    /// before it (``ResponseMetrics/retries``).
    /// - Parameters:
    ///   - policy: decides after each attempt.
    ///   - scheduler: waits between attempts; real time on a Dispatch queue by default,
    ///     an `ImmediateScheduler` or `ManualScheduler` from FetchTesting in tests.
    /// - Returns: the retrying performer.
    public func retrying(_ policy: RetryPolicy, scheduler: any Scheduler = DispatchQueueScheduler())
        -> LayeredPerformer
    {
        layered(RetryLayer(policy: policy, scheduler: scheduler))
    }
}
