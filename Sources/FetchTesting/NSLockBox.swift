import Foundation

/// A lock with a `withLock` that returns a value, usable on every platform the package declares.
final class NSLockBox: @unchecked Sendable {
    // NSLock is thread-safe itself; the box only adds `withLock`.
    private let lock = NSLock()

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
