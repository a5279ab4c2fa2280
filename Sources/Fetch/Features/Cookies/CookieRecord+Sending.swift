extension CookieRecord {
    /// No `;` or control character in the name or value, and no `=` in the name; a cookie that
    /// fails is never sent (a store may hold one made by hand; URLSession would send it as written).
    var isSendable: Bool {
        let forbidden: (Unicode.Scalar) -> Bool = { $0 == ";" || $0.value < 0x20 || $0.value == 0x7F }
        return !name.unicodeScalars.contains(where: forbidden) && !value.unicodeScalars.contains(where: forbidden)
            && !name.contains("=")
    }

    /// §5.4: those whose domain and path match, not `Secure` unless https, not expired; longer paths first, then
    /// earlier creation, then name (never the store's order).
    static func sent(to url: URL, from records: [CookieRecord], at now: Date) -> [CookieRecord] {
        guard let host = CookieRules.canonicalHost(of: url) else { return [] }
        let path = CookieRules.requestPath(of: url)
        let secureScheme = url.scheme?.lowercased() == "https"
        return records.filter {
            ($0.hostOnly ? host == $0.domain : CookieRules.domainMatches(host, $0.domain))
                && CookieRules.pathMatches(path, $0.path) && (!$0.secure || secureScheme) && !$0.isExpired(at: now)
                && $0.isSendable
        }
        .sorted { lhs, rhs in
            (rhs.path.utf8.count, lhs.created, lhs.name) < (lhs.path.utf8.count, rhs.created, rhs.name)
        }
    }

    static func fieldValue(_ records: [CookieRecord]) -> String {
        records.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }
}
