/// The tasks URLSession still works on for the sessions sharing this count (every ``Session`` shares ``process``): at
/// zero its one work queue has nothing of Fetch's to do, so a request may start on the caller's thread (`admit`).
final class TasksInFlight: Sendable {
    private let count = Locked(0)

    static let process = TasksInFlight()

    var isEmpty: Bool { count.withLock { $0 == 0 } }
    var current: Int { count.withLock { $0 } }

    func add() { count.withLock { $0 += 1 } }
    func remove(_ tasks: Int = 1) { count.withLock { $0 -= tasks } }
}
