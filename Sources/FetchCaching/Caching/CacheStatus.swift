import Fetch

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
