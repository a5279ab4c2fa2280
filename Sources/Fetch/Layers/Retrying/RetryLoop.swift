/// The retry engine under both the retrying layer (its policy decides after each
/// attempt, at once) and ``RequestPerforming/performRetryable(_:scheduler:completion:)``
/// (the caller decides, then or later): it sends attempt 1, reports its result, and when a
/// retry is granted for attempt N, waits through the scheduler and sends attempt N + 1.
/// Each attempt, with the wait before it, is one ``LayerCall``, whose completion reports it.
///
/// It guarantees:
/// - One attempt at a time: attempt N + 1 is waited for only once attempt N was reported.
/// - `report` runs once per attempt, with its result or, if the loop was cancelled first,
///   ``FetchError/Code-swift.enum/cancelled``; what arrives after that is dropped.
/// - A retry is granted at most once, for the last attempt reported, and never after a
///   cancel; it may be asked while `report` runs or at any time after, on any thread.
/// - A retry is never granted once a streamed call has handed its head to its reader
///   (``CallKind/canBeSentAgain``): its failure is delivered as it is.
/// - Cancelling is final and stops the attempt in flight or the wait; once the last attempt
///   was reported with no retry granted, it reports nothing and only refuses later retries.
/// - Nothing runs under the lock, so `send`, the scheduler and `report` may answer
///   synchronously (a spy, an immediate scheduler): every report then runs before
///   ``start()`` returns.
final class RetryLoop: Cancellable, Sendable {
    /// The number and call of the last attempt sent or waited for, and whether the loop was
    /// cancelled.
    private let state = Locked<(latest: (number: Int, call: LayerCall)?, isCancelled: Bool)>((nil, false))
    /// The request every attempt sends.
    let request: any Request
    /// The performer each attempt is sent to (`request` first, ``Request/forNextAttempt``
    /// after), whose stack also resolves the URL a cancellation names.
    private let performer: any RequestPerforming
    /// What waits between attempts.
    private let scheduler: any Scheduler
    /// Gets each attempt's result, or its cancellation.
    private let report: @Sendable (Result<Response, any Error>, CallerRetry) -> Void

    /// Makes a loop; nothing is sent before ``start()``.
    /// - Parameter report: gets each attempt's result, or its cancellation, with the way to retry it.
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
    func start() { _ = begin(1, after: nil) }

    /// Whether a retry can be granted for `attempt`, a reported one: it is the last attempt
    /// and the loop was not cancelled.
    func awaitsDecision(on attempt: Int) -> Bool { state.withLock { !$0.isCancelled && $0.latest?.number == attempt } }

    /// Sends attempt `attempt + 1` after `delay` through the scheduler (at once, without
    /// it, when `nil`) if ``awaitsDecision(on:)`` for `attempt`.
    /// - Returns: whether the retry was granted.
    /// The attempt's `result` goes first to the logging layer above, if one listens (the
    /// next attempt may be sent before `begin` returns).
    func retry(after attempt: Int, delay: Duration?, result: Result<Response, any Error>) -> Bool {
        request.attemptLog?.received(result)
        return begin(attempt + 1, after: delay)
    }

    /// Stops the loop: cancels the last attempt's call, which reports the cancellation
    /// unless that attempt was already reported.
    func cancel() {
        state.withLock {
            $0.isCancelled = true
            return $0.latest?.call
        }?.cancel()
    }

    /// Starts attempt `number`, the wait first when `delay` is not `nil`, if attempt
    /// `number - 1` is the last one and the loop was not cancelled.
    /// - Returns: whether it started.
    private func begin(_ number: Int, after delay: Duration?) -> Bool {
        let call = LayerCall(request: request, through: performer) { [self] result in
            // Each attempt's response says how many attempts came before it.
            let result = number == 1 ? result : result.recordingMetrics { $0.retries += number - 1 }
            report(result, CallerRetry(loop: self, attempt: number, result: result))
        }
        // A stream whose reader has its response is never sent again.
        if number > 1, !request.options.kind.canBeSentAgain { return false }
        let granted: Bool = state.withLock { state in
            guard !state.isCancelled, (state.latest?.number ?? 0) == number - 1 else { return false }
            state.latest = (number, call)
            return true
        }
        guard granted else { return false }
        // A later attempt is built again: its enhancers run again (a refreshed token, a new nonce).
        let sent = number == 1 ? request : request.forNextAttempt
        let sendAttempt: @Sendable () -> Void = { [performer] in
            call.run { performer.perform(sent) { call.finish($0) } }
        }
        if let delay {
            call.run { scheduler.schedule(after: delay, sendAttempt) }
        } else {
            sendAttempt()
        }
        return true
    }
}
