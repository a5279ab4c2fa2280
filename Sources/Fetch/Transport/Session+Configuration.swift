extension Session {
    /// Settings of a ``Session``. The defaults are safe ones: nothing is written to disk,
    /// every request has an overall deadline, bodies in memory are bounded.
    public struct Configuration: Sendable {
        /// How long a whole request may take, redirects and body included, before it fails
        /// with ``FetchError/Code-swift.enum/deadlineExceeded``; 60 s by default. A request
        /// can set its own with ``RequestOptions/deadline``.
        public var deadline: Duration = .seconds(60)
        /// How long the transfer may wait with no bytes arriving before it fails with
        /// ``FetchError/Code-swift.enum/timedOut``; 30 s by default. A request can set its
        /// own with ``RequestOptions/idleTimeout``. It counts in whole seconds, rounded up
        /// (at least 1 s): URLSession on Linux ignores fractions of a second.
        public var idleTimeout: Duration = .seconds(30)
        /// The largest response body kept in memory, in bytes; 32 MiB by default. A larger
        /// body fails with ``FetchError/Code-swift.enum/bodyTooLarge`` as soon as it is
        /// known to be larger, without buffering the rest.
        public var maximumBodySize: Int = 32 * 1024 * 1024
        /// The most connections to one host; 6 by default, as a raw URLSession on Linux. The
        /// requests the session runs at once on an origin (scheme, host and port) depend on the
        /// protocol, which it learns from the order in which responses arrive (URLSession
        /// reports none), and on how soon the origin answers:
        ///
        /// - **HTTP/1.1** (every plain-http origin, and an https origin that answers one
        ///   request per connection): while the origin answers quickly, at most 4 requests run
        ///   at once, transfers included. Once it is slow (4 heads in a row each came 40 ms or
        ///   more after its request started), this many run on the connections, and one more
        ///   waits inside URLSession for the next free one (unless its answers take a quarter
        ///   of the idle timeout or more). The others wait in the session's line, where
        ///   waiting does not count against the idle timeout (inside URLSession it would).
        /// - **HTTP/2** (an https origin that answers more requests at once than it has
        ///   connections): up to 100 requests run at once, multiplexed over at most this many
        ///   connections; the others wait in line.
        /// - **An https origin not known yet** gets up to 100 requests at once, as URLSession
        ///   would send them, but no more than would wait half the idle timeout inside
        ///   URLSession were it HTTP/1.1: this many per response time, taken as 500 ms before
        ///   its first answer (100 with the defaults), then as long as its latest answer took,
        ///   and never fewer than twice this many. The first responses tell which of the two
        ///   it is, and the session remembers HTTP/2.
        ///
        /// Waiting requests start in the order they were made; a waiting request can be
        /// cancelled, and its deadline counts from the moment it was made. A request holds the
        /// slot of the origin it started on until it finishes: its redirects, even to another
        /// origin, never wait for a slot (and do not take one there).
        ///
        /// Why 4 while quick: on Linux, URLSession (libcurl) keeps no more connections than
        /// four times the requests running at that moment. On a quick origin the running count
        /// often dips to one, and every connection past 4 is then closed and reopened by the
        /// next request, at a cost in CPU per request; with 4, the same 4 connections serve
        /// every request (Benchmarks/README.md, "Connections per origin", has the figures). On
        /// a slow origin the one waiting request keeps the count above one, and every
        /// connection adds throughput.
        ///
        /// Raise the limit when one origin must serve many slow requests at once and waiting
        /// costs more than connecting; a quick HTTP/1.1 origin still runs 4 at most. Values
        /// below 1 count as 1.
        public var maximumConnectionsPerHost: Int = 6
        /// How redirects are followed; see ``RedirectPolicy``.
        public var redirectPolicy: RedirectPolicy = .default
        /// Header names, besides `Authorization`, `Cookie` and `Proxy-Authorization`, that
        /// are removed when a redirect leaves the origin.
        public var sensitiveHeaders: Set<String> = []
        /// The queue completions are called on. When `nil`, the session's own queues: a
        /// private concurrent one, and for a call that ends while no other request is in
        /// flight a private serial one, which starts its thread sooner (completions may run
        /// side by side either way). Never the transport's own queue.
        public var completionQueue: DispatchQueue?
        /// The `User-Agent` sent unless a request sets its own. A value that cannot be sent (a
        /// CR, LF or NUL in it) refuses the session: every call fails with
        /// ``FetchError/Code-swift.enum/invalidRequest``, whatever its request sets.
        public var userAgent: String = "Fetch/\(Session.version)"
        /// A cookie store to read and write cookies with; none by default, so no cookie is
        /// kept, shared between sessions or written under the home folder. For an in-memory
        /// store, use `URLSessionConfiguration.ephemeral.httpCookieStorage`; `.shared` and group
        /// stores persist cookies under the home folder on Linux.
        ///
        /// With a store, the session applies RFC 6265 itself on every hop, redirects included
        /// (URLSession does not on Linux): cookies are stored from each response, a redirect's
        /// before the next hop, and sent only where their domain and path match, `Secure` ones
        /// only over https, until `Max-Age` or `Expires` says they have expired. A `Cookie`
        /// field a request sets itself goes first, and the store adds the cookies whose names
        /// it lacks; `httpShouldHandleCookies = false` on a request leaves the store out of it.
        /// Cookies are stored on URLSession's thread as responses arrive, so a store that
        /// writes to disk does so there: prefer an in-memory one. The README's "Cookies" says
        /// more.
        public var cookieStorage: HTTPCookieStorage?
        /// A response cache; none by default, so nothing is written to disk. FoundationNetworking
        /// on Linux (Swift 6.3) stores no HTTP response in a `URLCache`, so there a session with
        /// one is refused: every request fails with ``FetchError/Code-swift.enum/unsupportedSetting``
        /// (and `Session(urlSessionConfiguration:configuration:)` throws it). Fetch's caching layer
        /// works everywhere: `Session().caching()`.
        public var urlCache: URLCache?
        /// Whether responses carry timings, redirects and byte counts in
        /// ``Response/metrics``; on by default. Collecting them takes a few clock readings
        /// per request (not per chunk); turned off, `metrics` only holds what layers add.
        public var collectsMetrics = true

        /// Makes the default configuration.
        public init() {}
    }
}
