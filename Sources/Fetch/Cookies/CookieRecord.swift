import Foundation

/// A cookie as RFC 6265 §5.3 stores it: the fields the sending rules (§5.4) read.
struct CookieRecord: Equatable, Sendable {
    /// The cookie's name.
    var name: String
    /// The cookie's value.
    var value: String
    /// The host it was set by (host-only) or the domain it applies to: lowercase, no leading dot.
    var domain: String
    /// Whether it goes only to `domain` itself, not to its subdomains.
    var hostOnly: Bool
    /// The path it applies to, and below.
    var path: String
    /// When it expires; `nil` for a session cookie, which lasts as long as its store.
    var expires: Date?
    /// Whether it goes only over https.
    var secure: Bool
    /// Whether scripts may not read it; kept and sent like any other (Fetch is no browser).
    var httpOnly: Bool
    /// When it was first stored: an older cookie goes before a newer one with as long a path.
    var created: Date

    /// The cookie that `cookie`, received in a response to `url` at `now`, stores (§5.3);
    /// `nil` when it must be ignored: its `Domain` does not match the host or is a public
    /// suffix, or the URL has no host. An expired record (`Max-Age` of zero or less, or a past
    /// `Expires`) is returned: storing it removes the cookie it replaces.
    ///
    /// `Max-Age` wins over `Expires`. A `Domain` equal to the host, or an IP address, makes a
    /// host-only cookie.
    init?(accepting cookie: SetCookie, from url: URL, at now: Date) {
        guard let host = CookieRules.canonicalHost(of: url) else { return nil }
        if let maxAge = cookie.maxAge {
            expires = maxAge <= 0 ? .distantPast : now.addingTimeInterval(TimeInterval(maxAge))
        } else {
            expires = cookie.expires
        }
        if let attribute = cookie.domain, attribute != host {
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

    /// Makes a record from its fields.
    init(
        name: String, value: String, domain: String, hostOnly: Bool = true, path: String = "/",
        expires: Date? = nil, secure: Bool = false, httpOnly: Bool = false, created: Date = .distantPast
    ) {
        (self.name, self.value, self.domain, self.hostOnly, self.path) = (name, value, domain, hostOnly, path)
        (self.expires, self.secure, self.httpOnly, self.created) = (expires, secure, httpOnly, created)
    }

    /// Whether the cookie has expired at `now`.
    func isExpired(at now: Date) -> Bool {
        guard let expires else { return false }
        return expires <= now
    }

    /// Whether `other` is the same cookie, which a new one replaces: same name, domain and
    /// path (§5.3 step 11), host-only or not.
    func isSameCookie(as other: CookieRecord) -> Bool {
        name == other.name && domain == other.domain && path == other.path
    }
}
