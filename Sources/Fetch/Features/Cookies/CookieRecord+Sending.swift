extension CookieRecord {
    /// Whether this cookie goes with a request to `url` (§5.4): its domain and path match,
    /// it is not `Secure` or the request is https, and it has not expired at `now`.
    func isSent(toHost host: String, path requestPath: String, secureScheme: Bool, at now: Date) -> Bool {
        let domainMatches = hostOnly ? host == domain : CookieRules.domainMatches(host, domain)
        return domainMatches && CookieRules.pathMatches(requestPath, path) && (!secure || secureScheme)
            && !isExpired(at: now) && isSendable
    }

    /// Whether the name and value can go in a `Cookie` field as they are: no `;`, CR, LF or
    /// other control character. A cookie that cannot is never sent (a store may hold one made
    /// by hand; URLSession would put it on the wire as written).
    var isSendable: Bool {
        let forbidden: (Unicode.Scalar) -> Bool = { $0 == ";" || $0.value < 0x20 || $0.value == 0x7F }
        return !name.unicodeScalars.contains(where: forbidden) && !value.unicodeScalars.contains(where: forbidden)
            && !name.contains("=")
    }

    /// The cookies of `records` that go with a request to `url`, in the order §5.4 asks:
    /// longer paths first, then earlier creation (then by name, so that the order never
    /// depends on the store's).
    static func sent(to url: URL, from records: [CookieRecord], at now: Date) -> [CookieRecord] {
        guard let host = CookieRules.canonicalHost(of: url) else { return [] }
        let path = CookieRules.requestPath(of: url)
        let secureScheme = url.scheme?.lowercased() == "https"
        return records.filter { $0.isSent(toHost: host, path: path, secureScheme: secureScheme, at: now) }
            .sorted { lhs, rhs in
                (rhs.path.utf8.count, lhs.created, lhs.name) < (lhs.path.utf8.count, rhs.created, rhs.name)
            }
    }

    /// The value of a `Cookie` field carrying `records`: `name=value` pairs joined by `; `.
    static func fieldValue(_ records: [CookieRecord]) -> String {
        records.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }
}
