/// How long to wait before retry `n` (1 for the first): `min(maximum, initial × multiplierⁿ⁻¹)`, then jittered.
public struct Backoff: Sendable {
    /// The delay before the first retry.
    public var initial: Duration
    /// What each further delay is multiplied by; 1 for a constant delay.
    public var multiplier: Double
    /// The longest delay, before jitter.
    public var maximum: Duration
    /// How the delay is randomized.
    public var jitter: Jitter

    /// Makes a back-off.
    public init(initial: Duration, multiplier: Double, maximum: Duration, jitter: Jitter) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The same delay before every retry; no jitter unless asked for.
    public static func constant(_ delay: Duration, jitter: Jitter = .none) -> Backoff {
        Backoff(initial: delay, multiplier: 1, maximum: delay, jitter: jitter)
    }

    /// Delays that grow by `multiplier` from `initial` up to `maximum`; full jitter by default.
    public static func exponential(
        initial: Duration = .milliseconds(200), multiplier: Double = 2, maximum: Duration = .seconds(30),
        jitter: Jitter = .full
    ) -> Backoff {
        Backoff(initial: initial, multiplier: multiplier, maximum: maximum, jitter: jitter)
    }

    /// The delay before retry `retry` (1 for the first): never negative, at most `Int64.max` seconds.
    public func delay(beforeRetry retry: Int) -> Duration {
        let exponent = Double(max(0, retry - 1))
        // `Duration / Duration` reads any duration; `components` would trap beyond Int64.max seconds.
        let maximumSeconds = maximum / .seconds(1)
        let grown = (initial / .seconds(1)) * pow(max(multiplier, 0), exponent)
        let capped = grown.isFinite ? min(grown, maximumSeconds) : maximumSeconds
        let seconds = jitter.apply(max(0, capped))
        // 2⁶³ seconds is the first Double a Duration's components cannot hold.
        return seconds < 0x1p63 ? .seconds(seconds) : .seconds(Int64.max)
    }
}

/// How a back-off delay is randomized, so that clients failing together do not retry together.
public struct Jitter: Sendable {
    private let random: (@Sendable () -> Double)?

    /// Uses the delay as computed.
    public static let none = Jitter(random: nil)

    /// Full jitter: a uniformly random delay between zero and the computed one.
    public static let full = Jitter(random: { Double.random(in: 0..<1) })

    /// Full jitter from your own random source, for tests: the computed delay times `random()`, clamped to `0...1`.
    public static func full(random: @escaping @Sendable () -> Double) -> Jitter { Jitter(random: random) }

    func apply(_ seconds: Double) -> Double {
        guard let random else { return seconds }
        return seconds * min(1, max(0, random()))
    }
}
