/// A cookie as RFC 6265 §5.3 stores it: the fields the sending rules (§5.4) read.
struct CookieRecord: Equatable, Sendable {
    var name: String
    var value: String
    /// The host it was set by (host-only) or the domain it applies to: lowercase, no leading dot.
    var domain: String
    var hostOnly = true
    var path = "/"
    /// `nil` for a session cookie, which lasts as long as its store.
    var expires: Date? = nil
    var secure = false
    /// Kept and sent like any other cookie (Fetch is no browser).
    var httpOnly = false
    /// When it was first stored: an older cookie goes before a newer one with as long a path.
    var created = Date.distantPast

    func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }
}

// In an extension, so that the memberwise initializer stays.
extension CookieRecord {
    /// The cookie that `cookie`, received from `url` at `now`, stores (§5.3); `nil` when its `Domain` does not match
    /// the host or is a public suffix, or without a host. An expired one is returned: storing it removes the old.
    /// Any `Domain` that domain-matches the host makes a domain cookie, also one equal to the host (§5.3 step 6); only
    /// a public suffix or an IP address equal to the host (step 5), or no `Domain`, makes a host-only cookie.
    init?(accepting cookie: SetCookie, from url: URL, at now: Date) {
        guard let host = CookieRules.canonicalHost(of: url) else { return nil }
        // Max-Age wins over Expires; zero or less expires the cookie at once.
        expires =
            cookie.maxAge.map { $0 <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval($0)) } ?? cookie.expires
        let ownHostOnly = CookieRules.isPublicSuffix(host) || CookieRules.isIPAddress(host)
        if let attribute = cookie.domain, !(attribute == host && ownHostOnly) {
            guard !CookieRules.isPublicSuffix(attribute), CookieRules.domainMatches(host, attribute) else { return nil }
            (domain, hostOnly) = (attribute, false)
        } else {
            (domain, hostOnly) = (host, true)
        }
        name = cookie.name
        value = cookie.value
        path = cookie.path ?? CookieRules.defaultPath(of: url)
        secure = cookie.secure
        httpOnly = cookie.httpOnly
        created = now
    }
}
