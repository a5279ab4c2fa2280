/// Counts the calls in flight and says when a performer turns busy or idle.
///
/// `onChange(true)` comes when the first call starts, `onChange(false)` when the last ends, one at a time and never
/// under the counter's lock, so `onChange` may read the counter, start a call, or wait for another thread. A report
/// runs on the thread that made the change, before that call's start or end returns; changes made meanwhile on other
/// threads are reported right after by the reporting thread, and a busy-idle-busy flicker in between is no change. Hop
/// to the main queue for UI work.
public final class ActivityCounter: ActivityReporting, Sendable {
    private struct State {
        var active = 0
        /// The last state handed to `onChange`.
        var reported = false
        var isReporting = false
    }

    private let state = Locked(State())
    private let onChange: @Sendable (_ isBusy: Bool) -> Void

    /// Makes a counter that calls `onChange` on every busy/idle change.
    public init(onChange: @escaping @Sendable (_ isBusy: Bool) -> Void = { _ in }) {
        self.onChange = onChange
    }

    /// How many calls are in flight.
    public var activeCount: Int { state.withLock { $0.active } }

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

    /// One thread at a time reports, until the reported state matches the count; `onChange` may change it meanwhile.
    private func change(by delta: Int) {
        let leads: Bool = state.withLock { state in
            state.active += delta
            defer { state.isReporting = true }
            return !state.isReporting
        }
        guard leads else { return }
        while let busy = nextReport() { onChange(busy) }
    }

    /// The state to report next, or `nil` (and the reporting role given up) when the last report matches the count.
    private func nextReport() -> Bool? {
        state.withLock { state in
            let busy = state.active > 0
            guard busy != state.reported else {
                state.isReporting = false
                return nil
            }
            state.reported = busy
            return busy
        }
    }
}
