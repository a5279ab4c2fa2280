extension Duration {
    /// The duration in seconds, as a `Double` for Foundation APIs. Never traps, however
    /// long the duration (`components` would, past `Int64.max` seconds).
    var seconds: Double {
        self / .seconds(1)
    }

    /// The longest wait that whole nanoseconds in an `Int64` hold: about 292 years.
    static let longestNanoseconds = Duration.nanoseconds(Int64.max)

    /// The duration in whole nanoseconds: 0 when negative, and at most
    /// ``longestNanoseconds`` (about 292 years) however long the duration.
    var clampedNanoseconds: UInt64 {
        if self <= .zero { return 0 }
        if self >= Self.longestNanoseconds { return UInt64(Int64.max) }
        let (seconds, attoseconds) = components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
