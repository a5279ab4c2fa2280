/// How a ``Session`` follows redirects.
///
/// Whatever the policy, Fetch's own rules apply, as <doc:SafetyOnLinux> lists them: credentials dropped across
/// origins, the method and body rules of RFC 9110, http and https only.
///
/// `decide` runs on the session's delegate thread, one redirect at a time, never on URLSession's shared work queue: it
/// may wait, even for another request, but the session's other transfers wait for it meanwhile.
public struct RedirectPolicy: Sendable {
    /// One redirect about to be followed.
    public struct Hop: Sendable {
        /// The request that got the redirect.
        public var from: URLRequest
        /// The request Fetch is about to send, credentials already removed if the origin changed,
        /// and with a cookie store, the store's cookies for its URL in `Cookie`.
        public var to: URLRequest
        /// The redirect's status code.
        public var status: Int
        /// How many redirects came before this one.
        public var index: Int
    }

    /// What to do with one redirect.
    public enum Decision: Sendable {
        /// Send `Hop.to`.
        case follow
        /// Send this request instead (it is validated like any other).
        case followWith(URLRequest)
        /// Do not follow: the 3xx response is the result.
        case stop
        /// Fail with ``FetchError/Code-swift.enum/redirectRefused``.
        case refuse
    }

    /// The most redirects followed before failing with ``FetchError/Code-swift.enum/tooManyRedirects``.
    public var maximumHops: Int
    /// Whether a redirect from https to http fails with ``FetchError/Code-swift.enum/redirectRefused``
    /// instead of being followed; `false` by default, as browsers and URLSession follow it.
    /// Credentials are dropped on such a hop, but the rest, a 307/308 body included, goes in clear.
    public var refusesDowngrades = false
    let decide: @Sendable (Hop) -> Decision

    /// Makes a policy that follows up to `maximumHops` redirects, asking `decide` about each.
    public init(maximumHops: Int = 10, decide: @escaping @Sendable (Hop) -> Decision = { _ in .follow }) {
        self.maximumHops = maximumHops
        self.decide = decide
    }

    /// Follows up to 10 redirects.
    public static let `default` = RedirectPolicy()

    /// Follows no redirect: the 3xx response is returned as it is.
    public static let never = RedirectPolicy(maximumHops: 0) { _ in .stop }

    /// Follows up to `count` redirects.
    public static func limit(_ count: Int) -> RedirectPolicy { RedirectPolicy(maximumHops: count) }

    /// This policy, refusing any redirect from https to http (see ``refusesDowngrades``).
    public func refusingDowngrades() -> RedirectPolicy {
        var copy = self
        copy.refusesDowngrades = true
        return copy
    }

    /// The next hop's request: RFC 9110's method and body rules, and credentials dropped across origins.
    static func nextRequest(
        after previous: URLRequest, to target: URL, status: Int,
        sensitiveHeaders: Set<String>
    ) -> URLRequest {
        var next = previous
        next.url = target
        let method = previous.httpMethod ?? "GET"
        if status == 303 && method != "HEAD" || (status == 301 || status == 302) && method == "POST" {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
        }
        if !sameOrigin(previous.url, target) {
            let dropped = HTTPHeaders.credentialNames.union(sensitiveHeaders.map { $0.lowercased() })
            for name in (next.allHTTPHeaderFields ?? [:]).keys where dropped.contains(name.lowercased()) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return next
    }

    static func sameOrigin(_ lhs: URL?, _ rhs: URL?) -> Bool {
        guard let lhs = Origin(lhs), let rhs = Origin(rhs) else { return false }
        return lhs == rhs
    }
}
