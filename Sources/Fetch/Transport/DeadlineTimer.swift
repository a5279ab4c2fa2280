/// The one timer that enforces the overall deadline of every running request of a ``Session``: a `DispatchSourceTimer`
/// armed for the earliest deadline in a ``DeadlineTable``, which fails every request past it and re-arms.
final class DeadlineTimer: @unchecked Sendable {
    // `source` is set once, and re-armed only under the table's lock (a leaf).
    private let table = Locked(DeadlineTable<TaskState>())
    /// Fires on its own queue, so that a busy control or delegate queue never delays a deadline.
    private let source: DispatchSourceTimer

    init() {
        source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "Fetch.Session.deadlines"))
        source.setEventHandler { [weak self] in self?.fire() }
        source.activate()
    }

    deinit { source.cancel() }

    /// Fails `state` (``TaskState/deadlineExpired()``) after `deadline`, unless ``remove(_:)`` takes it out first.
    func add(_ state: TaskState, after deadline: Duration) {
        let (due, overflow) = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(deadline.clampedNanoseconds)
        table.withLock { table in
            if let time = table.insert(state, due: overflow ? .max : due) { arm(at: time) }
        }
    }

    func remove(_ state: TaskState) {
        table.withLock { $0.remove(state) }
    }

    private func arm(at time: UInt64) {
        source.schedule(deadline: DispatchTime(uptimeNanoseconds: time), leeway: .milliseconds(1))
    }

    /// Fails every request past its deadline, outside the lock, and re-arms for the next.
    private func fire() {
        let expired: [TaskState] = table.withLock { table in
            let (expired, next) = table.expire(now: DispatchTime.now().uptimeNanoseconds)
            if let next { arm(at: next) }
            return expired
        }
        for state in expired { state.deadlineExpired() }
    }
}
