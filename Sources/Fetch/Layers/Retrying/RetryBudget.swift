/// A limit on retries shared by every call that uses it, so that a failing server does
/// not get a storm of retries on top of its ordinary load.
///
/// Each call deposits `ratio` of a retry; each retry withdraws one. The budget starts
/// with `reserve` retries for bursts and never holds more than that (or one, if
/// `reserve` is 0). Over any stretch of calls, retries therefore stay below
/// `reserve + ratio × calls`: with the defaults, about 10% extra requests. When the budget
/// is empty the layer stops retrying and delivers the last result.
///
/// The window is counted in calls, not in time: there is no clock. Time passing neither
/// refills the budget nor expires what earlier calls earned; only new calls refill it, so
/// after a quiet hour it holds what it held before, and a client that makes few calls gets
/// few retries once the reserve is spent.
///
/// ```swift
/// let budget = RetryBudget(ratio: 0.1, reserve: 10)
/// var policy = RetryPolicy.exponential(maxAttempts: 3)
/// policy.budget = budget
/// ```
public final class RetryBudget: Sendable {
    /// The retries the budget can pay for now.
    private let available: Locked<Double>
    /// The share of a retry each call earns.
    public let ratio: Double
    /// The retries kept for bursts, which is also how many the budget can hold.
    public let reserve: Int

    /// Makes a budget.
    /// - Parameters:
    ///   - ratio: retries earned per call; 0.1 (10% extra requests) by default.
    ///   - reserve: retries available at the start and at most; 10 by default.
    public init(ratio: Double = 0.1, reserve: Int = 10) {
        self.ratio = max(0, ratio)
        self.reserve = max(0, reserve)
        available = Locked(Double(max(0, reserve)))
    }

    /// The retries the budget can pay for now (may be fractional).
    public var balance: Double { available.withLock { $0 } }

    /// Records a new call, earning `ratio` of a retry.
    func recordCall() {
        available.withLock { $0 = min(Double(max(1, reserve)), $0 + ratio) }
    }

    /// Spends one retry if there is one.
    /// - Returns: whether the retry may go ahead.
    func withdraw() -> Bool {
        available.withLock { available in
            guard available >= 1 else { return false }
            available -= 1
            return true
        }
    }
}
