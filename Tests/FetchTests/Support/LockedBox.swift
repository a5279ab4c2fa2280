import Foundation

/// A value behind a lock, for what `@Sendable` callbacks deliver.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    /// The value now.
    var value: Value { lock.withLock { stored } }

    /// Changes the value under the lock.
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
