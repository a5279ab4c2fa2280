/// A performer that tries a call again as its ``RetryPolicy`` decides, waiting between
/// attempts through a ``Scheduler``, never by blocking a thread. Made by
/// ``RequestPerforming/retrying(_:scheduler:)``.
///
/// The caller's completion runs once, with the last attempt's result. Cancelling the call
/// cancels the attempt in flight or the wait, and completes it with
/// ``FetchError/Code-swift.enum/cancelled``.
public struct RetryingPerformer<Base: RequestPerforming>: RequestPerforming {
    /// The performer each attempt goes to.
    public let base: Base
    /// What decides whether to try again.
    public let policy: RetryPolicy
    /// What waits between attempts.
    public let scheduler: any Scheduler

    /// Wraps `base`.
    public init(base: Base, policy: RetryPolicy, scheduler: any Scheduler) {
        self.base = base
        self.policy = policy
        self.scheduler = scheduler
    }

    /// Performs `request`, retrying as the policy decides.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        policy.budget?.recordCall()
        let call = LayerCall(request: request, completion: completion)
        send(call, attempt: 1)
        return call
    }

    private func send(_ call: LayerCall, attempt: Int) {
        call.run {
            base.perform(call.request) { result in settle(call, attempt: attempt, result: result) }
        }
    }

    private func settle(_ call: LayerCall, attempt: Int, result: Result<Response, any Error>) {
        guard !call.isFinished else { return }
        let decision = policy.decide(RetryPolicy.Attempt(number: attempt, request: call.request, result: result))
        guard decision != .stop, policy.budget?.withdraw() ?? true else { return call.finish(result) }
        if case .retryAfter(let delay) = decision {
            call.run { scheduler.schedule(after: delay) { send(call, attempt: attempt + 1) } }
        } else {
            send(call, attempt: attempt + 1)
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
    public func retrying(_ policy: RetryPolicy, scheduler: any Scheduler = DispatchQueueScheduler()) -> RetryingPerformer<Self> {
        RetryingPerformer(base: self, policy: policy, scheduler: scheduler)
    }
}
