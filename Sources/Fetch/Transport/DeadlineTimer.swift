/// The one timer, armed for the earliest deadline in a ``DeadlineTable``, that fails a ``Session``'s overdue requests.
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

    /// Fails the overdue requests outside the lock.
    private func fire() {
        let expired: [TaskState] = table.withLock { table in
            let (expired, next) = table.expire(now: DispatchTime.now().uptimeNanoseconds)
            if let next { arm(at: next) }
            return expired
        }
        for state in expired { state.deadlineExpired() }
    }
}
