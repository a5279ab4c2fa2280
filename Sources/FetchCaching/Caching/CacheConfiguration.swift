import Fetch

/// How a caching layer caches: where it stores responses, which clock it reads, and whether it guesses freshness.
public struct CacheConfiguration: Sendable {
    /// Where responses are kept; a 10 MiB ``MemoryCacheStorage`` by default.
    public var storage: any CacheStorage
    /// The current time, by which freshness and ages are computed; the system clock by default.
    public var clock: @Sendable () -> Date
    /// The fraction of the time since `Last-Modified` that a response without `max-age` or `Expires`, of a status
    /// heuristically cacheable by default, stays fresh (RFC 9111 section 4.2.2). 0.1 by default, the 10 % the RFC names
    /// as typical; `nil` or 0 guesses nothing, and such a response is stored only to be revalidated.
    public var heuristicFraction: Double?
    /// Header names besides `Authorization`, `Cookie` and `Proxy-Authorization` that carry
    /// credentials (an API key), so responses to different values are kept apart; compared
    /// without case, empty by default. A request adds its own with `RequestOptions.sensitiveHeaders`.
    public var sensitiveHeaders: Set<String> {
        didSet { extraCredentialNames = Set(sensitiveHeaders.map { $0.lowercased() }) }
    }
    /// `sensitiveHeaders` lowercased, read on every call with header fields.
    private(set) var extraCredentialNames: Set<String>
    /// The identifiers of the sets of credentials met, shared by the copies of this configuration.
    let partitions = Guarded(CachePartition.Identifiers())
    /// The keys revalidating in the background (`stale-while-revalidate`), shared by copies: one request per key.
    let revalidating = Guarded(Set<String>())

    /// Makes a configuration; each argument sets the property of its name.
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
