import Fetch

/// The calls a ``SpyPerformer`` received, handed one by one to ``SpyPerformer/nextCall(timeout:scheduler:)``;
/// part of the spy's state, and pure, so its rules are tested without a spy, a clock or a `Task`.
///
/// A call's place is fixed when it arrives (``arrive(_:)``), but it is handed out only once
/// settled (``settle(_:)``: held, or answered and its completion returned), so a waiter never
/// gets a call still being completed, nor a later call before an earlier one, even when one
/// call's completion sends the next. Waiters are served in the order they came.
struct CallArrivals<Call, Waiter> {
    /// Every call in the order it arrived.
    private(set) var calls: [Call] = []
    private var settled: [Bool] = []
    /// How many calls were handed out: always the first ones.
    private var handedOut = 0
    /// The waiters still waiting, in the order they came.
    private var waiters: [(id: Int, waiter: Waiter)] = []
    private var lastID = 0

    var waiting: Int { waiters.count }

    /// A call reached the spy: its number, to ``settle(_:)`` it by.
    mutating func arrive(_ call: Call) -> Int {
        calls.append(call)
        settled.append(false)
        return calls.count - 1
    }

    /// Call `number` is held or answered: the waiters that get a call now, each with its call.
    mutating func settle(_ number: Int) -> [(waiter: Waiter, call: Call)] {
        settled[number] = true
        var served: [(waiter: Waiter, call: Call)] = []
        while !waiters.isEmpty, let call = nextReady() { served.append((waiters.removeFirst().waiter, call)) }
        return served
    }

    mutating func newWaiter() -> Int {
        lastID += 1
        return lastID
    }

    /// The first call not handed out yet, if it is settled and no earlier waiter waits;
    /// otherwise `waiter` waits for it, after those that came before.
    mutating func wait(_ id: Int, _ waiter: Waiter) -> Call? {
        if waiters.isEmpty, let call = nextReady() { return call }
        waiters.append((id, waiter))
        return nil
    }

    /// Waiter `id`, no longer waiting, unless it got a call already (or never waited).
    mutating func stopWaiting(_ id: Int) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).waiter
    }

    /// Hands out the first call not handed out yet, if it is settled.
    private mutating func nextReady() -> Call? {
        guard handedOut < calls.count, settled[handedOut] else { return nil }
        handedOut += 1
        return calls[handedOut - 1]
    }
}

extension SpyPerformer {
    /// The error ``nextCall(timeout:scheduler:)`` throws when no call arrives in time.
    public struct NoCallArrived: Error, CustomStringConvertible {
        /// How long the test waited, and how many calls came before.
        public let description: String
    }

    /// The next call the spy receives: one that arrived and was not handed out yet, or the
    /// next to come. For code that sends from a `Task` (an `AsyncEnhancer`, a refresh run in
    /// a `Task`), where a held call reaches the spy only after `perform` returns.
    ///
    /// Every call is handed out once, in the order calls reached the spy, held or already
    /// answered (``PendingCall/isFinished`` is then `true`); an answered one once its completion
    /// has returned, so a call sent from inside it (a refresh's resend) comes after it.
    /// - Parameters:
    ///   - timeout: how long to wait; 10 seconds by default.
    ///   - scheduler: the clock of the timeout; real time by default.
    /// - Returns: the call.
    /// - Throws: ``NoCallArrived`` when no call arrives within `timeout`; `CancellationError`
    ///   when the waiting `Task` is cancelled.
    public func nextCall(
        timeout: Duration = .seconds(10), scheduler: any Scheduler = DispatchQueueScheduler()
    ) async throws -> PendingCall {
        let id = withState { $0.arrivals.newWaiter() }
        var timer: (any Cancellable)?
        defer { timer?.cancel() }
        let call = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                if let ready = withState({ $0.arrivals.wait(id, continuation) }) {
                    return continuation.resume(returning: ready)
                }
                if Task.isCancelled { return stopWaiting(id, with: CancellationError()) }
                timer = scheduler.schedule(after: timeout) { [self] in
                    let count = withState { $0.arrivals.calls.count }
                    stopWaiting(
                        id,
                        with: NoCallArrived(
                            description: "no call reached the spy within \(timeout) (\(count) call(s) before)"))
                }
            }
        } onCancel: {
            stopWaiting(id, with: CancellationError())
        }
        // A hand-off through the continuation is invisible to the thread sanitizer on Linux;
        // taking the lock the call was recorded under orders the sender's writes before our reads.
        withState { _ in }
        return call
    }

    /// A test waiting in ``nextCall(timeout:scheduler:)``.
    typealias Waiter = CheckedContinuation<PendingCall, any Error>

    /// Ends waiter `id` with `error`, unless it got a call already.
    private func stopWaiting(_ id: Int, with error: any Error) {
        withState { $0.arrivals.stopWaiting(id) }?.resume(throwing: error)
    }

    /// Call `number` is held or answered: hands it, and any settled call after it, to waiting tests.
    func settle(_ number: Int) {
        for (waiter, call) in withState({ $0.arrivals.settle(number) }) { waiter.resume(returning: call) }
    }
}
