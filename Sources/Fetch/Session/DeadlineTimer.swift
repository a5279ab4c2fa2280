/// The one timer that enforces the overall deadline of every running request of a ``Session``.
///
/// A running request is one entry in a heap, taken out as soon as it finishes; one
/// `DispatchSourceTimer` is armed for the earliest deadline, and when it fires it fails every
/// request past it and re-arms.
final class DeadlineTimer: @unchecked Sendable {
    // `source` is set once, and re-armed only under the heap's lock (a leaf).
    private let heap = Locked(DeadlineHeap<TaskState>())
    /// Fires on its own queue, so that a busy control or delegate queue never delays a deadline.
    private let source: DispatchSourceTimer

    init() {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Fetch.Session.deadlines"))
        source.setEventHandler { [weak self] in self?.fire() }
        source.activate()
    }

    deinit { source.cancel() }

    /// Fails `state` through ``TaskState/deadlineExpired()`` once `deadline` has passed,
    /// unless ``remove(_:)`` takes it out first.
    func add(_ state: TaskState, after deadline: Duration) {
        let (due, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(deadline.clampedNanoseconds)
        heap.withLock { heap in
            if let time = heap.insert(state, due: overflow ? .max : due) { arm(at: time) }
        }
    }

    func remove(_ state: TaskState) {
        heap.withLock { $0.remove(state) }
    }

    /// Arms the timer to fire at `time`; called under the heap's lock.
    private func arm(at time: UInt64) {
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: time), leeway: .milliseconds(1))
    }

    /// Fails every request past its deadline, outside the lock, and re-arms for the next.
    private func fire() {
        let expired: [TaskState] = heap.withLock { heap in
            let (expired, next) = heap.expire(now: DispatchTime.now().uptimeNanoseconds)
            if let next { arm(at: next) }
            return expired
        }
        for state in expired { state.deadlineExpired() }
    }
}
