/// The matching rules of RFC 6265 §5.1, as pure functions over strings.
enum CookieRules {
    /// Lowercased, without a trailing dot; `nil` when the URL has no host.
    static func canonicalHost(of url: URL) -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty ? nil : host
    }

    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { $0.count <= 3 && $0.isASCIIDigits && (Int($0) ?? 256) <= 255 }
    }

    /// §5.1.3: `host` is `domain`, or a name (not an IP address) ending with `.` and `domain`. Both are canonical.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        guard host.hasSuffix(domain), !isIPAddress(host) else { return false }
        return host.dropLast(domain.count).last == "."
    }

    /// Fetch carries no public suffix list: a single label (`com`, `localhost`) counts as a
    /// public suffix (§5.3 step 5); `co.uk` and the like are not recognised.
    static func isPublicSuffix(_ domain: String) -> Bool {
        !domain.contains(".")
    }

    /// The path of `url` as cookies compare it: percent-encoded, as sent; `/` when empty.
    static func requestPath(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return path.isEmpty ? "/" : path
    }

    /// §5.1.4: the request path up to, not including, its last `/`; `/` when that leaves nothing.
    static func defaultPath(of url: URL) -> String {
        let path = requestPath(of: url)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// §5.1.4: the cookie path is the request path, or a prefix of it that ends with `/` or is followed by `/`.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
    }
}
