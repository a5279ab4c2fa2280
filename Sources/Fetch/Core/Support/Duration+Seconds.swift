extension Duration {
    /// In seconds, for Foundation APIs; never traps, as `components` would past `Int64.max` seconds.
    var seconds: Double {
        self / .seconds(1)
    }

    /// The duration in whole nanoseconds: 0 when negative, at most `Int64.max` (about 292 years) however long.
    var clampedNanoseconds: UInt64 {
        if self <= .zero { return 0 }
        if self >= .nanoseconds(Int64.max) { return UInt64(Int64.max) }
        let (seconds, attoseconds) = components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
