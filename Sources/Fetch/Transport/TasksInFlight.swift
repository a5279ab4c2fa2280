/// How many tasks URLSession still works on for the sessions that share this count: made
/// and registered with a ``SessionDelegate``, until URLSession reports them ended or they
/// are forgotten.
///
/// Every ``Session`` of the process shares ``process``: when it is zero, URLSession's one
/// work queue has nothing of Fetch's to do, and a request may start on the caller's thread
/// (see `Session.admit`).
final class TasksInFlight: Sendable {
    private let count = Locked(0)

    static let process = TasksInFlight()

    var isEmpty: Bool { count.withLock { $0 == 0 } }
    var current: Int { count.withLock { $0 } }

    func add() { count.withLock { $0 += 1 } }
    func remove(_ tasks: Int = 1) { count.withLock { $0 -= tasks } }
}
