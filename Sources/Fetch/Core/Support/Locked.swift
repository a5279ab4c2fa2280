/// A value whose every read and write happens under a lock: the package's one lock, shaped like `Synchronization.Mutex`
/// (which needs newer Apple systems than the package's minimums). A class keeping its mutable state in one `Sendable`
/// struct behind a `Locked` is `Sendable` with no `@unchecked`; `Locked<Void>` is a plain lock, for a class that stays
/// `@unchecked Sendable` and says what the lock guards.
@usableFromInline package final class Locked<State: Sendable>: @unchecked Sendable {
    // `mutex` guards `state`, touched only in `withLock`; a raw mutex, not an `NSLock`: no object to make and free.
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // With the mutex held, no run-time exclusivity check is needed.
    @usableFromInline @exclusivity(unchecked) var state: State

    /// Makes a lock around `state`.
    @usableFromInline package init(_ state: State) {
        self.state = state
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, which it may change, under the lock.
    @inlinable package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
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
        // Not through `state`: the thread sanitizer would see an access to the whole object and report races.
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
