/// How one call went: when it started, where its time went, how many bytes moved, and
/// what the layers did for it. Every ``Response`` carries one in ``Response/metrics``.
///
/// `Session` fills in the timings, redirects and byte counts; layers add what they did:
/// the retrying layer the retries, the refresh layer the refreshes, the caching
/// layer where the response came from, the coalescing layer whether it was shared. A
/// response made by hand, or by a spy, has empty metrics (every duration `nil`, every
/// count 0) until a layer adds to them.
///
/// ```swift
/// let response = try await api.response(for: GetUser(id: 7))
/// print(response.metrics)   // started 12:00:01.250, queued 0.0 ms, first byte 3.1 ms, total 3.4 ms, ...
/// ```
public struct ResponseMetrics: Sendable, Hashable, CustomStringConvertible {
    /// When the call reached the performer that answered it (wall-clock time); `nil` for a
    /// response that no performer timed.
    public var start: Date?
    /// How long the call waited before its first request went out: for a free slot on its
    /// origin (see ``Session/Configuration-swift.struct/maximumConnectionsPerHost``) and for
    /// the session's control thread to make its task (microseconds when nothing waits).
    public var queued: Duration?
    /// From the start of the call to the head (status and headers) of its final response,
    /// after any redirects.
    public var timeToFirstByte: Duration?
    /// From the start of the call to its end: the whole body received.
    public var total: Duration?
    /// How many redirects were followed.
    public var redirects: Int = 0
    /// Body bytes sent by the request that got the response (headers not counted).
    public var bytesSent: Int64 = 0
    /// Body bytes received, as delivered (after any content decoding; headers not counted).
    /// For a download, the bytes written to its file.
    public var bytesReceived: Int64 = 0
    /// How many times a retrying layer sent the call again before this response.
    public var retries: Int = 0
    /// How many times a refresh layer refreshed (a token) and resent the call.
    public var refreshes: Int = 0
    /// Where a caching layer found the response; `nil` when no caching layer saw the call.
    public var cache: CacheStatus?
    /// Whether a coalescing layer handed the same response to several identical calls.
    public var shared: Bool = false

    /// Makes empty metrics: nothing timed, nothing counted.
    public init() {}

    /// The metrics on one line: timings in milliseconds, then counts that are not zero.
    public var description: String {
        let timings = [("queued", queued), ("first byte", timeToFirstByte), ("total", total)]
        let counts = [("redirects", redirects), ("retries", retries), ("refreshes", refreshes)]
        var parts = timings.compactMap { name, duration in duration.map { "\(name) \(Self.milliseconds($0)) ms" } }
        parts += ["sent \(bytesSent) B", "received \(bytesReceived) B"]
        parts += counts.filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }
        if let cache { parts.append("cache \(cache.rawValue)") }
        if shared { parts.append("shared") }
        return parts.joined(separator: ", ")
    }

    /// `duration` in milliseconds with one decimal, as metrics and log lines write it.
    static func milliseconds(_ duration: Duration) -> String {
        let tenths = (duration.seconds * 10_000).rounded()
        return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10)"
    }
}

/// Where a caching layer found a response (see ``ResponseMetrics/cache``).
public enum CacheStatus: String, Sendable, Hashable, CaseIterable {
    /// Not in the cache (or not usable): it came from the server.
    case miss
    /// Served from the cache without contacting the server.
    case hit
    /// A stored response the server confirmed with `304 Not Modified`: the stored body,
    /// with the stored headers updated from the 304.
    case revalidated

    /// Whether the body came from the cache (a hit or a revalidated entry).
    public var isFromCache: Bool { self != .miss }
}
