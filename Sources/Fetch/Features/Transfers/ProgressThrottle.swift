/// Decides which progress reports to pass on: at most one per `interval`, so a fast
/// transfer does not flood the caller with thousands of callbacks a second.
struct ProgressThrottle: Sendable {
    /// The shortest time between two reports, in nanoseconds (50 ms: 20 reports a second).
    let interval: UInt64
    private var lastReport: UInt64?

    init(interval: UInt64 = 50_000_000) { self.interval = interval }

    /// Whether a report at `now` (nanoseconds on a monotonic clock) goes out; the first
    /// always does.
    mutating func allows(at now: UInt64) -> Bool {
        if let lastReport, now &- lastReport < interval { return false }
        lastReport = now
        return true
    }
}
