import Foundation

/// Collects what `@Sendable` completions deliver, so a test can assert on it afterwards.
final class Captured<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `values`.
    private let lock = NSLock()
    private var values: [Value] = []

    /// Records one delivered value.
    func record(_ value: Value) {
        lock.withLock { values.append(value) }
    }

    /// Every value delivered so far, in order.
    var all: [Value] { lock.withLock { values } }

    /// How many values were delivered.
    var count: Int { all.count }

    /// The only value delivered; `nil` when there were none or several.
    var only: Value? {
        let values = all
        return values.count == 1 ? values[0] : nil
    }
}
