import Fetch

/// A value whose every read and write happens under a lock, shared by reference. `Guarded<Void>` is a plain lock.
final class Guarded<State: Sendable>: @unchecked Sendable {
    // `lock` guards `state`, which is only touched inside `withLock`.
    private let lock = NSLock()
    private var state: State

    init(_ state: State) { self.state = state }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
