/// The layer of ``RequestPerforming/retrying(_:scheduler:)``: tries a call again as its policy decides.
struct RetryLayer: Layer {
    let policy: RetryPolicy
    let scheduler: any Scheduler

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        policy.budget?.recordCall()
        // Cancels the wait before a retry; the attempt in flight is cancelled with the call.
        let wait = CancellationHandle()
        send(1, request, next, wait, completion)
        return wait
    }

    /// Sends attempt `number`, then delivers its result or sends the next attempt, as the policy decides.
    private func send(
        _ number: Int, _ request: any Request, _ next: any RequestPerforming, _ wait: CancellationHandle,
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        _ = next.perform(request) { received in
            // The first attempt's result is read where it lies: a copy would cost every call.
            func decide(_ result: Result<Response, any Error>) {
                let decision = policy.decide(RetryPolicy.Attempt(number: number, request: request, result: result))
                guard decision != .stop, request.options.kind.canBeSentAgain, policy.budget?.withdraw() ?? true else {
                    return completion(result)
                }
                request.attemptLog?.received(result)
                guard case .retryAfter(let delay) = decision else {
                    return send(number + 1, request, next, wait, completion)
                }
                let job = scheduler.schedule(after: delay) { send(number + 1, request, next, wait, completion) }
                wait.setAction { job.cancel() }
            }
            if number == 1 { return decide(received) }
            decide(received.recordingMetrics { $0.retries += number - 1 })
        }
    }
}

extension RequestPerforming {
    /// This performer, trying calls again as `policy` decides.
    ///
    /// The caller gets the last attempt's result; cancelling the call cancels the attempt in flight or the wait.
    /// Every response says how many attempts came before it (``ResponseMetrics/retries``).
    /// - Parameters:
    ///   - policy: decides after each attempt.
    ///   - scheduler: waits between attempts; real time on a Dispatch queue by default,
    ///     an `ImmediateScheduler` or `ManualScheduler` from FetchTesting in tests.
    public func retrying(_ policy: RetryPolicy, scheduler: any Scheduler = DispatchQueueScheduler())
        -> LayeredPerformer
    {
        layered(RetryLayer(policy: policy, scheduler: scheduler))
    }
}
