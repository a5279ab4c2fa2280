/// The engine of ``RequestPerforming/performRetryable(_:scheduler:completion:)``: one attempt at a time, and
/// `report` runs once per attempt, with its result or, if the loop was cancelled first,
/// ``FetchError/Code-swift.enum/cancelled``, where the performer calls back (at once when it names no queue).
/// A retry is granted at most once, for the last attempt reported, never after a cancel nor for a stream whose reader
/// has its head; it may be asked at any time, on any thread. Cancelling is final. Nothing runs under the lock, so a
/// synchronous performer, scheduler and `report` (a spy, an immediate scheduler) all run before ``start()`` returns.
final class RetryLoop: Cancellable, Sendable {
    private struct State {
        /// The last attempt sent or waited for (0 before the first).
        var attempt = 0
        /// The last attempt reported, its result or its cancellation.
        var reported = 0
        var isCancelled = false
        /// The last attempt's request or wait, while it is not reported.
        var inFlight: (any Cancellable)?
        /// Numbers each wait and each send, so that a handle returned after a newer step began
        /// (an immediate scheduler sends before `schedule` returns) is not kept over its handle.
        var step = 0
    }

    private let state = Locked(State())
    let request: any Request
    /// Where each attempt goes (``Request/forNextAttempt`` after the first); resolves the URL a cancellation names.
    private let performer: any RequestPerforming
    private let scheduler: any Scheduler
    /// Gets each attempt's result, or its cancellation, with the way to retry it.
    private let report: @Sendable (Result<Response, any Error>, CallerRetry) -> Void

    /// Makes a loop; nothing is sent before ``start()``.
    init(
        request: any Request, through performer: any RequestPerforming, scheduler: any Scheduler,
        report: @escaping @Sendable (Result<Response, any Error>, CallerRetry) -> Void
    ) {
        self.request = request
        self.performer = performer
        self.scheduler = scheduler
        self.report = report
    }

    /// Sends attempt 1; call it once.
    func start() { _ = retry(after: 0, delay: nil, result: nil) }

    /// Whether a retry can be granted for `attempt`: it is the last one, and the loop was not cancelled.
    func awaitsDecision(on attempt: Int) -> Bool { state.withLock { !$0.isCancelled && $0.attempt == attempt } }

    /// Stops the loop: cancels the attempt in flight or the wait; reports the last attempt cancelled if unreported.
    func cancel() {
        let (inFlight, unreported): ((any Cancellable)?, Int?) = state.withLock { state in
            guard !state.isCancelled else { return (nil, nil) }
            state.isCancelled = true
            defer { state.inFlight = nil }
            guard state.reported < state.attempt else { return (state.inFlight, nil) }
            state.reported = state.attempt
            return (state.inFlight, state.attempt)
        }
        inFlight?.cancel()
        guard let unreported else { return }
        let cancelled = Result<Response, any Error>.failure(FetchError.cancelled(request, through: performer))
        performer.callBack({ self.deliver($0, of: unreported) }, with: cancelled, for: request)
    }

    /// Sends attempt `attempt + 1` (after `delay`, if any) if ``awaitsDecision(on:)`` for `attempt`; returns whether it
    /// did. A logging layer above hears `result`, the last attempt's, first.
    func retry(after attempt: Int, delay: Duration?, result: Result<Response, any Error>?) -> Bool {
        let number = attempt + 1
        if attempt > 0, !request.options.kind.canBeSentAgain { return false }
        let waitStep: Int? = state.withLock { state in
            guard !state.isCancelled, state.attempt == attempt else { return nil }
            state.attempt = number
            state.inFlight = nil
            state.step += 1
            return state.step
        }
        guard let waitStep else { return false }
        if let result { request.attemptLog?.received(result) }
        if let delay {
            keep(scheduler.schedule(after: delay) { self.send(number) }, step: waitStep)
        } else {
            send(number)
        }
        return true
    }

    /// Sends attempt `number`, unless the loop was cancelled while it waited. A later attempt
    /// is built again: its enhancers run again (a refreshed token, a new nonce).
    private func send(_ number: Int) {
        let step: Int? = state.withLock { state in
            guard !state.isCancelled else { return nil }
            state.step += 1
            return state.step
        }
        guard let step else { return }
        let sent = number == 1 ? request : request.forNextAttempt
        keep(performer.perform(sent) { self.finish(number, with: $0) }, step: step)
    }

    /// Keeps `handle`, of `step`, for a cancel, unless a newer step began or the attempt was reported (answered
    /// before `perform` returned); cancels it at once when the loop was cancelled meanwhile.
    private func keep(_ handle: any Cancellable, step: Int) {
        let cancelNow: Bool = state.withLock { state in
            if state.isCancelled { return true }
            if state.step == step, state.reported < state.attempt { state.inFlight = handle }
            return false
        }
        if cancelNow { handle.cancel() }
    }

    /// Reports attempt `number`'s `result`, unless it was reported (cancelled) already.
    private func finish(_ number: Int, with result: Result<Response, any Error>) {
        let first: Bool = state.withLock { state in
            guard state.reported < number else { return false }
            state.reported = number
            state.inFlight = nil
            return true
        }
        if first { deliver(result, of: number) }
    }

    /// Hands attempt `number`'s `result`, counting the attempts before it, to `report`.
    private func deliver(_ result: Result<Response, any Error>, of number: Int) {
        let result = number == 1 ? result : result.recordingMetrics { $0.retries += number - 1 }
        report(result, CallerRetry(loop: self, attempt: number, result: result))
    }
}
