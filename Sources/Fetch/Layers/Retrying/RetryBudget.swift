/// A limit on retries shared by every call that uses it, so a failing server gets no storm of retries.
///
/// Each call adds `ratio` of a retry and each retry spends one, so retries stay below `reserve + ratio × calls`; it
/// holds at most `reserve` (or one, if `reserve` is 0), and time passing does not refill it. When it is empty the layer
/// delivers the last result.
public final class RetryBudget: Sendable {
    private let available: Locked<Double>
    /// The share of a retry each call earns.
    public let ratio: Double
    /// The retries kept for bursts, which is also how many the budget can hold.
    public let reserve: Int

    /// Makes a budget earning `ratio` of a retry per call (0.1 by default: 10% extra requests)
    /// and holding at most `reserve` retries (10 by default), all of them at the start.
    public init(ratio: Double = 0.1, reserve: Int = 10) {
        self.ratio = max(0, ratio)
        self.reserve = max(0, reserve)
        available = Locked(Double(max(0, reserve)))
    }

    /// The retries the budget can pay for now (may be fractional).
    public var balance: Double { available.withLock { $0 } }

    func recordCall() {
        available.withLock { $0 = min(Double(max(1, reserve)), $0 + ratio) }
    }

    func withdraw() -> Bool {
        available.withLock { available in
            guard available >= 1 else { return false }
            available -= 1
            return true
        }
    }
}
