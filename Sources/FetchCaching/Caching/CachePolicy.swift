import Fetch

/// How a caching layer treats one request; set it with `RequestOptions.cachePolicy`.
public enum CachePolicy: Sendable, Hashable {
    /// The HTTP rules (RFC 9111): a fresh stored response is used, a stale one is
    /// revalidated, and the response is stored when its headers allow. The default.
    case useCache
    /// Always asks the server, unconditionally, and stores the response when its headers allow.
    case reload
    /// Uses a stored response even when stale, asking the server only when nothing is stored (`max-stale` without a
    /// limit); one whose headers forbid that (`no-cache`, `must-revalidate`) is revalidated.
    case returnCacheElseLoad
    /// Uses a stored response, even a stale one, never asking the server; fails with
    /// `FetchError.Code-swift.enum.cacheMiss` when nothing usable is stored. As `Cache-Control: only-if-cached`.
    case onlyIfCached
}

extension RequestOptions {
    private enum CachePolicyKey: RequestOptionKey { static let defaultValue = CachePolicy.useCache }

    /// How a caching layer treats this request; ``CachePolicy/useCache`` by default.
    public var cachePolicy: CachePolicy {
        get { self[CachePolicyKey.self] }
        set { self[CachePolicyKey.self] = newValue }
    }
}

/// Where a caching layer found a response (see `ResponseMetrics.cache`).
public enum CacheStatus: String, Sendable, Hashable, CaseIterable {
    /// Not in the cache (or not usable): it came from the server.
    case miss
    /// Served from the cache without contacting the server.
    case hit
    /// A stored response the server confirmed with `304 Not Modified`, its headers updated.
    case revalidated

    /// Whether the body came from the cache (a hit or a revalidated entry).
    public var isFromCache: Bool { self != .miss }
}

extension ResponseMetrics {
    private enum Cache: MetricKey {
        static let defaultValue: CacheStatus? = nil
        static func description(of value: CacheStatus?) -> String? { value.map { "cache \($0.rawValue)" } }
    }

    /// Where a caching layer found the response; `nil` when no caching layer saw the call.
    public var cache: CacheStatus? {
        get { self[Cache.self] }
        set { self[Cache.self] = newValue }
    }
}
