/// A value whose every read and write happens under a lock: the package's one lock, in the
/// shape of `Synchronization.Mutex` (which needs newer Apple systems than the package's
/// minimums).
///
/// A class keeps its mutable state in one `Sendable` struct behind a `Locked`, so the class
/// itself is `Sendable` with no `@unchecked`. `Locked<Void>` is a plain lock, for a class
/// whose `var`s it guards; such a class stays `@unchecked Sendable` and says what the lock
/// guards.
package final class Locked<State: Sendable>: @unchecked Sendable {
    // `mutex` guards `state`: it is only touched inside `withLock`. A mutex of its own rather
    // than an `NSLock`, an object of its own to make and free: a call through a stack of
    // layers makes several of these.
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // With the mutex held, no run-time exclusivity check is needed: each access skips one
    // (Benchmarks/README.md, "Instructions per call of the layers").
    @exclusivity(unchecked) private var state: State

    /// Makes a lock around `state`.
    package init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, which it may change, under the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}

extension Locked where State == Void {
    /// Makes a plain lock.
    package convenience init() { self.init(()) }

    /// Runs `body` under the lock.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        // Not through `state`: the thread sanitizer takes an access to the empty value for
        // an access to the whole object, and reports races between the lock's users.
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
