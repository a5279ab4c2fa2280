import Foundation

/// A lock that is usable on every platform the package declares.
final class NSLockShim: @unchecked Sendable {
    // NSLock is thread-safe itself; this wrapper only adds `withLock` with a return value.
    private let lock = NSLock()

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// A value whose every read and write happens under a lock.
final class Locked<Value>: @unchecked Sendable {
    // `lock` guards `value`: it is only touched inside `withLock`.
    private let lock = NSLockShim()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
