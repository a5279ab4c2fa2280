/// Passes on at most one progress report per `interval`, so a fast transfer does not flood the caller.
struct ProgressThrottle: Sendable {
    /// In nanoseconds (50 ms: 20 reports a second).
    let interval: UInt64
    private var lastReport: UInt64?

    init(interval: UInt64 = 50_000_000) { self.interval = interval }

    /// Whether a report at `now` (monotonic nanoseconds) goes out; the first always does.
    mutating func allows(at now: UInt64) -> Bool {
        if let lastReport, now &- lastReport < interval { return false }
        lastReport = now
        return true
    }
}
