/// A value whose every read and write happens under a lock: the package's one lock, in the
/// shape of `Synchronization.Mutex` (which needs newer Apple systems than the package's
/// minimums).
///
/// A class keeps its mutable state in one `Sendable` struct behind a `Locked`, so the class
/// itself is `Sendable` with no `@unchecked`. `Locked<Void>` is a plain lock, for a class
/// whose `var`s it guards; such a class stays `@unchecked Sendable` and says what the lock
/// guards. Copies of a `Locked` share one state and one lock.
package struct Locked<State: Sendable>: @unchecked Sendable {
    // `storage`'s mutex guards its state: both are only touched inside `withLock`.
    private let storage: LockedStorage<State>

    /// Makes a lock around `state`.
    package init(_ state: State) {
        storage = LockedStorage.make(state)
    }

    /// Runs `body` with the state, which it may change, under the lock.
    @inline(__always)
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}

extension Locked where State == Void {
    /// Makes a plain lock.
    package init() { self.init(()) }

    /// Runs `body` under the lock.
    @inline(__always)
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try withLock { (_: inout Void) in try body() }
    }
}

/// The state of a ``Locked`` and its mutex in one object: the mutex is stored after the
/// state, in the object's own memory, so a lock is one allocation, not an object and a
/// mutex of its own (a call through a stack of layers makes several). The state is reached
/// through a pointer, which skips the run-time exclusivity check a stored `var` makes on
/// every access; the mutex makes that check needless.
private final class LockedStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
    /// Makes the object with `state` and an initialized mutex.
    static func make(_ state: State) -> LockedStorage {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in state }, to: LockedStorage.self)
        storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_init($0, nil) }
        return storage
    }

    deinit {
        _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
}
