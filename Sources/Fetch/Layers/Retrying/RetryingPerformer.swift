/// A performer that tries a call again as its ``RetryPolicy`` decides, waiting between
/// attempts through a ``Scheduler``, never by blocking a thread. Made by
/// ``RequestPerforming/retrying(_:scheduler:)``.
///
/// The caller's completion runs once, with the last attempt's result. Cancelling the call
/// cancels the attempt in flight or the wait, and completes it with
/// ``FetchError/Code-swift.enum/cancelled``. It runs on the same engine as
/// ``RequestPerforming/performRetryable(_:scheduler:completion:)``, with the policy as the
/// caller that decides after each attempt.
public struct RetryingPerformer: RequestPerforming {
    /// The performer each attempt goes to.
    package let base: any RequestPerforming
    /// What decides whether to try again.
    package let policy: RetryPolicy
    /// What waits between attempts.
    package let scheduler: any Scheduler

    /// Performs `request`, retrying as the policy decides.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        policy.budget?.recordCall()
        return base.performRetryable(request, scheduler: scheduler, through: base) { result, retry in
            if !retry.retry(following: policy, asPerformer: true) { completion(result) }
        }
    }
}

extension RequestPerforming {
    /// This performer, trying calls again as `policy` decides.
    ///
    /// ```swift
    /// let api = Session().retrying(.exponential(maxAttempts: 3))
    /// ```
    /// - Parameters:
    ///   - policy: decides after each attempt.
    ///   - scheduler: waits between attempts; real time on a Dispatch queue by default,
    ///     an `ImmediateScheduler` or `ManualScheduler` from FetchTesting in tests.
    /// - Returns: the retrying performer.
    public func retrying(_ policy: RetryPolicy, scheduler: any Scheduler = DispatchQueueScheduler())
        -> RetryingPerformer
    {
        RetryingPerformer(base: self, policy: policy, scheduler: scheduler)
    }
}
