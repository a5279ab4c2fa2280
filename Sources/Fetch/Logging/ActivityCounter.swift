import Foundation

/// Counts the calls in flight and says when a performer turns busy or idle.
///
/// `onChange(true)` is called when the first call starts, `onChange(false)` when the last
/// one ends. The calls come in order, one at a time, under the counter's lock, on the
/// thread that started or ended the call: keep `onChange` short and hop to the main queue
/// asynchronously for UI work. Use one counter per performer, or share one between several.
public final class ActivityCounter: ActivityReporting, @unchecked Sendable {
    // `lock` guards `active` and serializes `onChange` calls; it is recursive so that
    // `onChange` may read `activeCount` or start a call itself.
    private let lock = NSRecursiveLock()
    private var active = 0
    private let onChange: @Sendable (_ isBusy: Bool) -> Void

    /// Makes a counter that calls `onChange` on every busy/idle change.
    public init(onChange: @escaping @Sendable (_ isBusy: Bool) -> Void = { _ in }) {
        self.onChange = onChange
    }

    /// How many calls are in flight.
    public var activeCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return active
    }

    /// Whether any call is in flight.
    public var isBusy: Bool { activeCount > 0 }

    /// Counts a call in; turns busy if it is the first.
    public func requestStarted(_ request: any Request) {
        lock.lock()
        defer { lock.unlock() }
        active += 1
        if active == 1 { onChange(true) }
    }

    /// Counts a call out; turns idle if it was the last.
    public func requestEnded(_ request: any Request, result: Result<Response, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        active -= 1
        if active == 0 { onChange(false) }
    }
}
