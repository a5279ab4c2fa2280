import Foundation

/// A value behind a lock, for tests that hand one to a `@Sendable` closure.
public final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: Value

    /// A box holding `value`.
    public init(_ value: Value) { stored = value }

    /// The value now.
    public var value: Value { lock.withLock { stored } }

    /// Changes the value under the lock.
    public func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }

    /// Runs `body` with the value under the lock, and returns what it returns.
    public func withLock<Result>(_ body: (inout Value) -> Result) -> Result { lock.withLock { body(&stored) } }
}
