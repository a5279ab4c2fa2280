import Fetch

/// How a caching layer caches: where it stores responses, which clock it reads, and
/// whether it guesses freshness.
public struct CacheConfiguration: Sendable {
    /// Where responses are kept; a 10 MiB ``MemoryCacheStorage`` by default.
    public var storage: any CacheStorage
    /// The current time; the system clock by default. Freshness and ages are computed
    /// with it (and with the `Date` the server sent), so tests can move it forward.
    public var clock: @Sendable () -> Date
    /// The fraction of the time since `Last-Modified` a response without explicit
    /// freshness (no `max-age`, no `Expires`) stays fresh (RFC 9111 section 4.2.2), for the
    /// statuses heuristically cacheable by default (200, 203, 204, 206, 300, 301, 308, 404,
    /// 405, 410, 414, 501). 0.1 by default: the 10 % RFC 9111 names as typical, and what
    /// Chrome, Firefox, Apple's `URLCache` and OkHttp use. `nil` or 0 guesses nothing: such a
    /// response is stored only to be revalidated.
    public var heuristicFraction: Double?
    /// Header names, besides `Authorization`, `Cookie` and `Proxy-Authorization`, that carry
    /// credentials (an API key, a session header): the cache keeps the responses to requests
    /// with different values of them apart, as it does for those three. Compared without
    /// regard to case; a request adds its own with `RequestOptions.sensitiveHeaders`.
    /// Empty by default.
    public var sensitiveHeaders: Set<String> {
        didSet { extraCredentialNames = Set(sensitiveHeaders.map { $0.lowercased() }) }
    }
    /// `sensitiveHeaders` lowercased, read on every call with header fields.
    private(set) var extraCredentialNames: Set<String>
    /// The identifiers of the sets of credentials met, shared by the copies of this configuration.
    let partitions = Guarded(CachePartition.Identifiers())
    /// The keys whose stale response is being revalidated in the background
    /// (`stale-while-revalidate`), shared by the copies of this configuration: one request
    /// per key at a time, whatever the number of calls it served meanwhile.
    let revalidating = Guarded(Set<String>())

    /// Makes a configuration.
    /// - Parameters:
    ///   - storage: where responses are kept; a 10 MiB ``MemoryCacheStorage`` by default.
    ///   - heuristicFraction: see `heuristicFraction`; 0.1 by default, `nil` or 0 for none.
    ///   - sensitiveHeaders: see `sensitiveHeaders`; none by default.
    ///   - clock: the current time; the system clock by default.
    public init(
        storage: any CacheStorage = MemoryCacheStorage(), heuristicFraction: Double? = 0.1,
        sensitiveHeaders: Set<String> = [], clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.storage = storage
        self.heuristicFraction = heuristicFraction
        self.sensitiveHeaders = sensitiveHeaders
        extraCredentialNames = Set(sensitiveHeaders.map { $0.lowercased() })
        self.clock = clock
    }
}
