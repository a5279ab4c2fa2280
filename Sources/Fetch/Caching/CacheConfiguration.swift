import Foundation

/// How a caching layer caches: where it stores responses, which clock it reads, and
/// whether it guesses freshness.
public struct CacheConfiguration: Sendable {
    /// Where responses are kept; a 10 MiB ``MemoryCacheStorage`` by default.
    public var storage: any CacheStorage
    /// The current time; the system clock by default. Freshness and ages are computed
    /// with it (and with the `Date` the server sent), so tests can move it forward.
    public var clock: @Sendable () -> Date
    /// The fraction of the time since `Last-Modified` a response without explicit
    /// freshness (no `max-age`, no `Expires`) stays fresh, for the statuses RFC 9111 lets a
    /// cache guess about (200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501); `nil`, the
    /// default, guesses nothing: such a response is stored only to be revalidated. 0.1 is
    /// the usual choice.
    public var heuristicFraction: Double?

    /// Makes a configuration.
    /// - Parameters:
    ///   - storage: where responses are kept; a 10 MiB ``MemoryCacheStorage`` by default.
    ///   - heuristicFraction: see ``heuristicFraction``; `nil` by default.
    ///   - clock: the current time; the system clock by default.
    public init(
        storage: any CacheStorage = MemoryCacheStorage(), heuristicFraction: Double? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.heuristicFraction = heuristicFraction
        self.clock = clock
    }
}
