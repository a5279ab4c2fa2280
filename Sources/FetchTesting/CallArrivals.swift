import Fetch

/// The calls a ``SpyPerformer`` received, handed one by one to tests that await them with
/// ``SpyPerformer/nextCall(timeout:scheduler:)``.
final class CallArrivals: Sendable {
    typealias Waiter = CheckedContinuation<PendingCall, any Error>

    /// Every call in order, how many were handed out, and who waits for the next one.
    private struct State {
        var calls: [PendingCall] = []
        var handedOut = 0
        var waiters: [(id: Int, continuation: Waiter)] = []
        var nextID = 0
    }

    private let state = Locked(State())

    /// A call arrived: hands it to the first waiter, if any.
    func add(_ call: PendingCall) {
        let waiter: Waiter? = state.withLock { state in
            state.calls.append(call)
            guard !state.waiters.isEmpty else { return nil }
            state.handedOut += 1
            return state.waiters.removeFirst().continuation
        }
        waiter?.resume(returning: call)
    }

    /// The first call not handed out yet, at once or when it arrives.
    /// - Throws: ``SpyPerformer/NoCallArrived`` when none arrives within `timeout`;
    ///   `CancellationError` when the waiting `Task` is cancelled.
    func next(timeout: Duration, scheduler: any Scheduler) async throws -> PendingCall {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Waiter) in
                let ready: PendingCall? = state.withLock { state in
                    if state.handedOut < state.calls.count {
                        state.handedOut += 1
                        return state.calls[state.handedOut - 1]
                    }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let ready { return continuation.resume(returning: ready) }
                if Task.isCancelled { return stopWaiting(id, with: CancellationError()) }
                scheduler.schedule(after: timeout) { [self] in
                    let count = state.withLock { state in state.calls.count }
                    stopWaiting(
                        id,
                        with: SpyPerformer.NoCallArrived(
                            description: "no call reached the spy within \(timeout) (\(count) call(s) before)"))
                }
            }
        } onCancel: {
            stopWaiting(id, with: CancellationError())
        }
    }

    /// Ends waiter `id` with `error`, unless it got a call already.
    private func stopWaiting(_ id: Int, with error: any Error) {
        let waiter: Waiter? = state.withLock { state in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).continuation
        }
        waiter?.resume(throwing: error)
    }
}

extension SpyPerformer {
    /// The error ``nextCall(timeout:scheduler:)`` throws when no call arrives in time.
    public struct NoCallArrived: Error, CustomStringConvertible {
        /// How long the test waited, and how many calls came before.
        public let description: String
    }

    /// The next call the spy receives, in the order calls arrive: one that arrived already
    /// and was not handed out yet, or the next to come. For code that sends from a `Task`
    /// (an `AsyncEnhancer`, a refresh run in a `Task`), where a held call reaches the spy
    /// only after `perform` returns:
    ///
    /// ```swift
    /// let spy = SpyPerformer([.hold])
    /// let load = Task { try await spy.enhanced(by: ActorBearer(tokens: Tokens())).perform(GetUser(id: 7)) }
    /// let call = try await spy.nextCall()          // fails the test after 10 s, never hangs
    /// call.respond(try .json(User(id: 7, name: "Ada")))
    /// #expect(try await load.value.name == "Ada")
    /// ```
    ///
    /// Every call is handed out once, held (``PendingCall/respond(_:)`` completes it) or
    /// already answered (its ``PendingCall/isFinished`` is then `true`).
    /// - Parameters:
    ///   - timeout: how long to wait; 10 seconds by default.
    ///   - scheduler: the clock of the timeout; real time by default.
    /// - Returns: the call.
    /// - Throws: ``NoCallArrived`` when no call arrives within `timeout`; `CancellationError`
    ///   when the waiting `Task` is cancelled.
    public func nextCall(
        timeout: Duration = .seconds(10), scheduler: any Scheduler = DispatchQueueScheduler()
    ) async throws -> PendingCall {
        try await arrivals.next(timeout: timeout, scheduler: scheduler)
    }
}
