import Dispatch

/// The one timer that enforces the overall deadline of every running request in the process.
///
/// A `DispatchWorkItem` scheduled with `asyncAfter` for each request kept everything its
/// closure held (the request's whole state, body buffer and completion included) until the
/// deadline passed, cancelled or not: with the default of 60 s, the last minute of finished
/// requests stayed in memory. Here a running request is one entry in a heap, taken out as
/// soon as it finishes, and one `DispatchSourceTimer` is armed for the earliest deadline;
/// when it fires it fails every request past its deadline and re-arms for the next.
final class DeadlineTimer: @unchecked Sendable {
    /// The timer of every ``Session`` in the process.
    static let shared = DeadlineTimer()

    // `heap` is guarded by its own lock, and `source` is only re-armed under that lock;
    // `source` itself is set once.
    private let heap = Locked(DeadlineHeap<TaskState>())
    private let source: DispatchSourceTimer

    private init() {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Fetch.Session.deadlines"))
        source.setEventHandler { [weak self] in self?.fire() }
        source.activate()
    }

    /// Fails `state` through ``TaskState/deadlineExpired()`` once `deadline` has passed,
    /// unless ``remove(_:)`` takes it out first.
    func add(_ state: TaskState, after deadline: Duration) {
        let (due, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(deadline.clampedNanoseconds)
        heap.withLock { heap in
            if let time = heap.insert(state, due: overflow ? .max : due) { arm(at: time) }
        }
    }

    /// Forgets `state`, which has finished.
    func remove(_ state: TaskState) {
        heap.withLock { $0.remove(state) }
    }

    /// Called under the heap's lock.
    private func arm(at time: UInt64) {
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: time), leeway: .milliseconds(1))
    }

    private func fire() {
        let expired: [TaskState] = heap.withLock { heap in
            let (expired, next) = heap.expire(now: DispatchTime.now().uptimeNanoseconds)
            if let next { arm(at: next) }
            return expired
        }
        for state in expired { state.deadlineExpired() }
    }
}
