import Foundation
import Fetch

/// A `Scheduler` that runs work at once, on the calling thread, whatever the delay.
/// It records the delays asked for, so a test can check a back-off.
public final class ImmediateScheduler: Scheduler, @unchecked Sendable {
    // `lock` guards `requestedDelays`; an `NSLock`, as the package's generic lock would run unspecialized.
    private let lock = NSLock()
    private var requestedDelays: [Duration] = []

    /// Makes an immediate scheduler.
    public init() {}

    /// Every delay asked for, in order.
    public var delays: [Duration] {
        lock.lock()
        defer { lock.unlock() }
        return requestedDelays
    }

    /// Runs `work` now and records `delay`.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        lock.lock()
        requestedDelays.append(delay)
        lock.unlock()
        work()
        return NothingToCancel()
    }
}

/// A `Scheduler` whose clock moves only when a test calls ``advance(by:)``.
public final class ManualScheduler: Scheduler, @unchecked Sendable {
    private struct Job {
        let id: Int
        let due: Duration
        let work: @Sendable () -> Void
    }

    // `lock` guards `currentTime`, `jobs` and `nextID`.
    private let lock = Locked()
    private var currentTime: Duration = .zero
    private var jobs: [Job] = []
    private var nextID = 0

    /// Makes a scheduler whose clock starts at zero.
    public init() {}

    /// The time since the scheduler was made, as far as it has been advanced.
    public var now: Duration { lock.withLock { currentTime } }

    /// How many jobs wait to run.
    public var pendingCount: Int { lock.withLock { jobs.count } }

    /// Queues `work` to run when the clock reaches now + `delay`.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let id: Int = lock.withLock {
            nextID += 1
            jobs.append(Job(id: nextID, due: currentTime + delay, work: work))
            return nextID
        }
        return CancellationHandle { [weak self] in
            self?.lock.withLock { self?.jobs.removeAll { $0.id == id } }
        }
    }

    /// Moves the clock forward by `duration`, running every job that comes due, in order
    /// of due time (jobs scheduled meanwhile included).
    public func advance(by duration: Duration = .zero) {
        let target = lock.withLock { currentTime + duration }
        while let job = popDue(before: target) { job.work() }
        lock.withLock { currentTime = max(currentTime, target) }
    }

    /// Runs every job, however far in the future, moving the clock as it goes, and every job they schedule: it
    /// returns once none is left, so never while a job schedules itself again (a repeating timer; use
    /// ``advance(by:)`` there).
    public func runAll() {
        while let job = lock.withLock({ jobs.min { $0.due < $1.due } }) {
            advance(by: max(.zero, job.due - now))
        }
    }

    private func popDue(before target: Duration) -> Job? {
        lock.withLock {
            guard
                let index = jobs.indices.filter({ jobs[$0].due <= target })
                    .min(by: { (jobs[$0].due, jobs[$0].id) < (jobs[$1].due, jobs[$1].id) })
            else { return nil }
            let job = jobs.remove(at: index)
            currentTime = max(currentTime, job.due)
            return job
        }
    }
}
