/// How many tasks URLSession still works on for the sessions that share this count: made
/// and registered with a ``SessionDelegate``, and neither reported ended nor forgotten (a
/// task that never started, or a 3xx whose redirect goes on in a new task). A task whose
/// call has ended counts until URLSession reports it ended, so the tail it may still be
/// reading counts too.
///
/// Every ``Session`` of the process shares ``process``: when it is zero, URLSession's one
/// work queue has nothing of Fetch's to do, and a request may be started on the caller's
/// thread (see `Session.admit`).
final class TasksInFlight: Sendable {
    private let count = Locked(0)

    /// The count every ``Session`` of the process shares.
    static let process = TasksInFlight()

    /// Whether no task is counted.
    var isEmpty: Bool { count.withLock { $0 == 0 } }

    /// Counts one more task.
    func add() { count.withLock { $0 += 1 } }

    /// Counts `tasks` fewer, one by default.
    func remove(_ tasks: Int = 1) { count.withLock { $0 -= tasks } }

    /// How many tasks are counted.
    var current: Int { count.withLock { $0 } }
}
