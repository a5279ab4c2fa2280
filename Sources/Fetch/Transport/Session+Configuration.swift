extension Session {
    /// Settings of a ``Session``. The defaults are safe ones: nothing is written to disk,
    /// every request has an overall deadline, bodies in memory are bounded.
    public struct Configuration: Sendable {
        /// How long a whole request may take, redirects and body included, before it fails
        /// with ``FetchError/Code-swift.enum/deadlineExceeded``; 60 s by default. A request
        /// can set its own with ``RequestOptions/deadline``.
        public var deadline: Duration = .seconds(60)
        /// How long the transfer may wait with no bytes arriving before it fails with
        /// ``FetchError/Code-swift.enum/timedOut``; 30 s by default, per request with ``RequestOptions/idleTimeout``.
        /// Rounded up to whole seconds (at least 1 s): URLSession on Linux ignores fractions.
        public var idleTimeout: Duration = .seconds(30)
        /// The largest response body kept in memory, in bytes; 32 MiB by default. A larger body fails with
        /// ``FetchError/Code-swift.enum/bodyTooLarge`` as soon as it is known to be larger, without buffering the rest.
        public var maximumBodySize: Int = 32 * 1024 * 1024
        /// The most connections to one host; 6 by default, as a raw URLSession on Linux. Values below 1 count as 1.
        /// Requests an origin cannot run yet wait in line, in order, without counting against the idle timeout (their
        /// deadline counts); <doc:SafetyOnLinux> has the rules. Raise it when one origin must serve many slow requests.
        public var maximumConnectionsPerHost: Int = 6
        /// How redirects are followed; see ``RedirectPolicy``.
        public var redirectPolicy: RedirectPolicy = .default
        /// Header names, besides `Authorization`, `Cookie` and `Proxy-Authorization`, that
        /// are removed when a redirect leaves the origin.
        public var sensitiveHeaders: Set<String> = []
        /// The queue completions are called on. When `nil`, the session's own: a private
        /// concurrent queue, or a private serial one for a call that ends while no other is in
        /// flight (completions may run side by side either way). Never the transport's queue.
        public var completionQueue: DispatchQueue?
        /// The `User-Agent` sent unless a request sets its own. One that cannot be sent (CR, LF or NUL) fails every
        /// call of the session with ``FetchError/Code-swift.enum/invalidRequest``.
        public var userAgent: String = "Fetch/\(Session.version)"
        /// A cookie store, applied by Fetch itself with RFC 6265 on every hop (see <doc:SafetyOnLinux>); none by
        /// default. Prefer one in memory (`URLSessionConfiguration.ephemeral.httpCookieStorage`) to `.shared`.
        public var cookieStorage: HTTPCookieStorage?
        /// A response cache; none by default. FoundationNetworking on Linux (Swift 6.3) stores no
        /// HTTP response in a `URLCache`, so there a session with one fails every request with
        /// ``FetchError/Code-swift.enum/unsupportedSetting``. Use `Session().caching()` instead.
        public var urlCache: URLCache?
        /// Whether responses carry timings, redirects and byte counts in
        /// ``Response/metrics``; on by default. Off, `metrics` only holds what layers add.
        public var collectsMetrics = true

        /// Makes the default configuration.
        public init() {}
    }
}
