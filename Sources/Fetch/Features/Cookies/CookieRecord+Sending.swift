extension CookieRecord {
    /// §5.4: domain and path match, not `Secure` or the request is https, not expired.
    func isSent(toHost host: String, path requestPath: String, secureScheme: Bool, at now: Date) -> Bool {
        let domainMatches = hostOnly ? host == domain : CookieRules.domainMatches(host, domain)
        return domainMatches && CookieRules.pathMatches(requestPath, path) && (!secure || secureScheme)
            && !isExpired(at: now) && isSendable
    }

    /// No `;` or control character in the name or value, and no `=` in the name; a cookie that
    /// fails is never sent (a store may hold one made by hand; URLSession would send it as written).
    var isSendable: Bool {
        let forbidden: (Unicode.Scalar) -> Bool = { $0 == ";" || $0.value < 0x20 || $0.value == 0x7F }
        return !name.unicodeScalars.contains(where: forbidden) && !value.unicodeScalars.contains(where: forbidden)
            && !name.contains("=")
    }

    /// In §5.4's order: longer paths first, then earlier creation, then name (never the store's order).
    static func sent(to url: URL, from records: [CookieRecord], at now: Date) -> [CookieRecord] {
        guard let host = CookieRules.canonicalHost(of: url) else { return [] }
        let path = CookieRules.requestPath(of: url)
        let secureScheme = url.scheme?.lowercased() == "https"
        return records.filter { $0.isSent(toHost: host, path: path, secureScheme: secureScheme, at: now) }
            .sorted { lhs, rhs in
                (rhs.path.utf8.count, lhs.created, lhs.name) < (lhs.path.utf8.count, rhs.created, rhs.name)
            }
    }

    static func fieldValue(_ records: [CookieRecord]) -> String {
        records.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }
}
