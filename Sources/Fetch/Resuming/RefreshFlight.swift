/// Runs a ``ResumableHandler``'s work one at a time for every call that needs it
/// (single flight), and remembers how many runs have succeeded.
final class RefreshFlight: @unchecked Sendable {
    typealias Waiter = @Sendable (Result<Void, any Error>) -> Void

    // `lock` guards `succeeded` (successful runs so far) and `waiters` (the calls waiting
    // for the run in progress; `nil` when none runs).
    private let lock = NSLockShim()
    private var succeeded = 0
    private var waiters: [Waiter]?

    /// How many runs have succeeded; read before sending, to know later whether a run
    /// finished in between.
    var generation: Int { lock.withLock { succeeded } }

    /// Gets `waiter` the outcome of a run that follows the request sent at generation
    /// `seen`: at once if a run has succeeded since, otherwise by joining the run in
    /// progress or starting one with `start`.
    func join(
        after seen: Int, start: (@escaping @Sendable (Result<Void, any Error>) -> Void) -> Void,
        waiter: @escaping Waiter
    ) {
        enum Step { case resumeNow, wait, start }
        let step: Step = lock.withLock {
            if succeeded != seen { return .resumeNow }
            if waiters != nil {
                waiters?.append(waiter)
                return .wait
            }
            waiters = [waiter]
            return .start
        }
        switch step {
        case .resumeNow: waiter(.success(()))
        case .wait: break
        case .start: start { [self] outcome in finish(outcome) }
        }
    }

    /// Hands the outcome of the run to every waiter, once; a second report is ignored.
    private func finish(_ outcome: Result<Void, any Error>) {
        let toCall: [Waiter] = lock.withLock {
            guard let current = waiters else { return [] }
            if case .success = outcome { succeeded += 1 }
            waiters = nil
            return current
        }
        for waiter in toCall { waiter(outcome) }
    }
}
