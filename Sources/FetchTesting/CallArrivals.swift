import Fetch

/// The calls a ``SpyPerformer`` received, handed one by one to tests that await them with
/// ``SpyPerformer/nextCall(timeout:scheduler:)``: every call in order, how many were handed
/// out, and who waits for the next one. Part of the spy's state, changed under its lock.
struct CallArrivals {
    typealias Waiter = CheckedContinuation<PendingCall, any Error>

    private var calls: [PendingCall] = []
    private var handedOut = 0
    private var waiters: [(id: Int, continuation: Waiter)] = []
    private var lastID = 0

    /// How many calls arrived.
    var count: Int { calls.count }

    /// A call arrived: the first waiter, to hand it to, if any.
    mutating func add(_ call: PendingCall) -> Waiter? {
        calls.append(call)
        guard !waiters.isEmpty else { return nil }
        handedOut += 1
        return waiters.removeFirst().continuation
    }

    /// A new waiter's identity.
    mutating func newWaiter() -> Int {
        lastID += 1
        return lastID
    }

    /// The first call not handed out yet; if there is none, `continuation` waits for the next.
    mutating func next(for id: Int, _ continuation: Waiter) -> PendingCall? {
        guard handedOut < calls.count else {
            waiters.append((id, continuation))
            return nil
        }
        handedOut += 1
        return calls[handedOut - 1]
    }

    /// Waiter `id`, no longer waiting, unless it got a call already.
    mutating func stopWaiting(_ id: Int) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).continuation
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
    /// let load = Task(priority: .high) {
    ///     try await spy.enhanced(by: ActorBearer(tokens: Tokens())).perform(GetUser(id: 7))
    /// }
    /// let call = try await spy.nextCall()          // fails the test after 10 s, never hangs
    /// call.respond(try .json(User(id: 7, name: "Ada")))
    /// #expect(try await load.value.name == "Ada")
    /// ```
    ///
    /// Every call is handed out once, held (``PendingCall/respond(_:)`` completes it) or
    /// already answered (its ``PendingCall/isFinished`` is then `true`). The `Task` that sends
    /// the call starts at high priority: one of default priority waits, at each of its hops,
    /// behind every test that the run queues on the concurrency pool, for most of the
    /// 10 seconds on 2 busy cores.
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
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CallArrivals.Waiter) in
                if let ready = withState({ $0.arrivals.next(for: id, continuation) }) {
                    return continuation.resume(returning: ready)
                }
                if Task.isCancelled { return stopWaiting(id, with: CancellationError()) }
                scheduler.schedule(after: timeout) { [self] in
                    let count = withState { $0.arrivals.count }
                    stopWaiting(
                        id,
                        with: NoCallArrived(
                            description: "no call reached the spy within \(timeout) (\(count) call(s) before)"))
                }
            }
        } onCancel: {
            stopWaiting(id, with: CancellationError())
        }
    }

    /// Ends waiter `id` with `error`, unless it got a call already.
    private func stopWaiting(_ id: Int, with error: any Error) {
        withState { $0.arrivals.stopWaiting(id) }?.resume(throwing: error)
    }

    /// Hands `call`, answered or held, to the first test that waits for a call, if any.
    func arrived(_ call: PendingCall) {
        withState { $0.arrivals.add(call) }?.resume(returning: call)
    }
}
