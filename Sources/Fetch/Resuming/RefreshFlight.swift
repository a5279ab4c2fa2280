/// Runs a ``ResumableHandler``'s work one at a time for every call that needs it
/// (single flight), and remembers how many runs have succeeded.
final class RefreshFlight: @unchecked Sendable {
    typealias Waiter = @Sendable (Result<Void, any Error>) -> Void

    /// The run in progress: which one it is, and the calls waiting for it.
    private struct Run {
        let id: Int
        var waiters: [Waiter]
    }

    // `lock` guards `succeeded` (successful runs so far), `started` (runs started so far,
    // which numbers each run) and `running` (the run in progress; `nil` when none runs).
    private let lock = Locked()
    private var succeeded = 0
    private var started = 0
    private var running: Run?

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
        enum Step {
            case resumeNow, wait
            case start(run: Int)
        }
        let step: Step = lock.withLock {
            if succeeded != seen { return .resumeNow }
            if running != nil {
                running?.waiters.append(waiter)
                return .wait
            }
            started += 1
            running = Run(id: started, waiters: [waiter])
            return .start(run: started)
        }
        switch step {
        case .resumeNow: waiter(.success(()))
        case .wait: break
        case .start(let run): start { [self] outcome in finish(run: run, outcome) }
        }
    }

    /// Hands the outcome of run `run` to every waiter, once. A second report, or a late
    /// report from a run that has ended and been followed by another, is ignored.
    private func finish(run: Int, _ outcome: Result<Void, any Error>) {
        let toCall: [Waiter] = lock.withLock {
            guard let current = running, current.id == run else { return [] }
            if case .success = outcome { succeeded += 1 }
            running = nil
            return current.waiters
        }
        for waiter in toCall { waiter(outcome) }
    }
}
