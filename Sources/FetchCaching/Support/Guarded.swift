import Fetch

/// A value whose every read and write happens under a lock; copies share both. `Guarded<Void>` is a plain lock.
struct Guarded<State: Sendable>: @unchecked Sendable {
    /// Holds the state; its lock guards `state`, which is only touched inside `withLock`.
    private final class Box: @unchecked Sendable {
        let lock = NSLock()
        var state: State
        init(_ state: State) { self.state = state }
    }

    private let box: Box

    init(_ state: State) { box = Box(state) }

    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        box.lock.lock()
        defer { box.lock.unlock() }
        return try body(&box.state)
    }
}
