/// Counts the calls in flight and says when a performer turns busy or idle.
///
/// `onChange(true)` is called when the first call starts, `onChange(false)` when the last
/// one ends. The reports alternate, busy first, one at a time, and never under the
/// counter's lock, so `onChange` may read the counter, start a call, or wait for another
/// thread that does. A report runs on the thread that made the change, before that call's
/// start or end returns; while one runs, changes made on other threads are reported by
/// the thread already reporting, right after, and a busy-idle-busy flicker in between is
/// reported as no change. Hop to the main queue for UI work. Use one counter per
/// performer, or share one between several.
public final class ActivityCounter: ActivityReporting, @unchecked Sendable {
    // `lock` guards `active` (calls in flight), `reported` (the last state handed to
    // `onChange`) and `isReporting` (whether a thread is delivering reports). It is never
    // held while `onChange` runs.
    private let lock = Locked()
    private var active = 0
    private var reported = false
    private var isReporting = false
    private let onChange: @Sendable (_ isBusy: Bool) -> Void

    /// Makes a counter that calls `onChange` on every busy/idle change.
    public init(onChange: @escaping @Sendable (_ isBusy: Bool) -> Void = { _ in }) {
        self.onChange = onChange
    }

    /// How many calls are in flight.
    public var activeCount: Int { lock.withLock { active } }

    /// Whether any call is in flight.
    public var isBusy: Bool { activeCount > 0 }

    /// Counts a call in; turns busy if it is the first.
    public func requestStarted(_ request: any Request) {
        change(by: 1)
    }

    /// Counts a call out; turns idle if it was the last.
    public func requestEnded(_ request: any Request, result: Result<Response, any Error>) {
        change(by: -1)
    }

    /// Applies `delta`, then reports until the reported state matches the count, unless
    /// another thread (or an `onChange` further up this one) is reporting and will.
    private func change(by delta: Int) {
        let leads: Bool = lock.withLock {
            active += delta
            guard !isReporting else { return false }
            isReporting = true
            return true
        }
        guard leads else { return }
        while let busy = nextReport() { onChange(busy) }
    }

    /// The state to report next, or `nil` (and the reporting role given up) when the last
    /// report matches the count.
    private func nextReport() -> Bool? {
        lock.withLock {
            let busy = active > 0
            guard busy != reported else {
                isReporting = false
                return nil
            }
            reported = busy
            return busy
        }
    }
}
