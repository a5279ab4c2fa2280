import Fetch

/// The RFC 9111 decisions of a private cache, as pure functions. Each set of credentials has a partition of its own, so
/// the shared-cache rules (section 3.5 on `Authorization`, `s-maxage`, not storing `private`) do not apply; `public`
/// only allows storing.
enum CacheRules {
    /// What to do with a stored response for a request.
    enum Use: Equatable {
        case serve
        /// Serve it as it is, and revalidate it in the background (`stale-while-revalidate`).
        case serveAndRevalidate
        /// Ask the server first, conditionally if it has a validator; it may answer if that fails (`stale-if-error`).
        case revalidate
        /// It cannot serve this request: another variant.
        case unusable
    }

    /// Header fields never stored (RFC 9111 section 3.1): they describe one connection.
    static let hopByHop: Set<String> = [
        "connection", "proxy-connection", "keep-alive", "te", "transfer-encoding", "upgrade",
    ]

    /// Whether and how `stored` may answer `request` as this layer sees it; `hasFields` false: it has no header fields.
    static func use(
        _ stored: CachedResponse, for request: URLRequest, hasFields: Bool, requestDirectives: CacheDirectives,
        policy: CachePolicy, at now: Date, heuristicFraction: Double?
    ) -> Use {
        let directives = stored.directives
        guard matchesVary(stored, hasFields ? request : nil) else { return .unusable }
        let mustValidate = directives.noCache || requestDirectives.noCache || (hasFields && pragmaNoCache(request))
        guard !mustValidate else { return .revalidate }
        // Stale, it is served when it allows it and the policy or the request's `max-stale` asks for it.
        var staleAllowed = !directives.mustRevalidate && (policy == .returnCacheElseLoad || policy == .onlyIfCached)
        let age = stored.currentAge(at: now)
        let lifetime = stored.freshnessLifetime(heuristicFraction: heuristicFraction)
        var fresh = age < lifetime && requestDirectives.maxAge != .invalid
        if case .value(let maxAge) = requestDirectives.maxAge, age > Double(maxAge) { fresh = false }
        if case .value(let minFresh) = requestDirectives.minFresh, lifetime - age < Double(minFresh) { fresh = false }
        if fresh { return .serve }
        if case .value(let maxStale) = requestDirectives.maxStale,
            maxStale == Int.max || age - lifetime <= Double(maxStale)
        {
            staleAllowed = !directives.mustRevalidate
        }
        if staleAllowed { return .serve }
        // RFC 5861 section 3, for a request that asks for no fresher response than usual.
        let whileRevalidating =
            requestDirectives.maxAge == .absent && requestDirectives.minFresh == .absent
            && isWithin(directives.staleWhileRevalidate, stale: age - lifetime, of: stored)
        return whileRevalidating ? .serveAndRevalidate : .revalidate
    }

    /// Whether `stored` may be served `stale` seconds past its lifetime within the window of
    /// `directive` (RFC 5861); never under `must-revalidate` (RFC 9111 section 5.2.2.2).
    static func isWithin(_ directive: CacheDirectives.Seconds, stale: Double, of stored: CachedResponse) -> Bool {
        guard case .value(let window) = directive, !stored.directives.mustRevalidate else { return false }
        return stale <= Double(window)
    }

    /// `Pragma: no-cache` counts only when the request has no `Cache-Control` (RFC 9111 section 5.4).
    private static func pragmaNoCache(_ request: URLRequest) -> Bool {
        guard request.header("Cache-Control") == nil, let pragma = request.header("Pragma") else { return false }
        return pragma.lowercased().contains("no-cache")
    }

    /// Whether `request` (`nil`: one without header fields) carries the values the request
    /// `stored` answered had for every field its `Vary` names, runs of spaces made one.
    static func matchesVary(_ stored: CachedResponse, _ request: URLRequest?) -> Bool {
        stored.varying.isEmpty || stored.varying.allSatisfy { normalized(request?.header($0.key)) == $0.value }
    }

    /// The fields `Vary` names with `request`'s values; `nil` for `Vary: *`, which nothing matches.
    static func varying(_ headers: HTTPHeaders, _ request: URLRequest) -> [String: String?]? {
        var varying: [String: String?] = [:]
        for field in headers.values(for: "Vary").flatMap({ Substring($0).fieldNames }) {
            if field == "*" { return nil }
            varying[field] = normalized(request.header(field))
        }
        return varying
    }

    private static func normalized(_ value: String?) -> String? {
        value.map { $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ") }
    }

    /// The fields `Vary` names with `request`'s values when `response` may be stored (RFC 9111 section 3), else `nil`;
    /// `sentInPartition` false: credentials were added below, out of a later lookup's sight. A response never fresh is
    /// still stored, to be revalidated or served stale when a request allows it.
    static func storedVarying(
        _ response: Response, for request: URLRequest, requestDirectives: CacheDirectives, sentInPartition: Bool
    ) -> [String: String?]? {
        let directives = CacheDirectives(response.headers)
        let status = response.status
        guard !directives.noStore, !requestDirectives.noStore, status >= 200, status != 206, sentInPartition else {
            return nil
        }
        // A status not known to be cacheable by default needs explicit freshness (RFC 9111 section 3).
        let explicit =
            directives.maxAge != .absent || response.headers.contains("Expires") || directives.isPublic
            || directives.isPrivate
        guard explicit || CachedResponse.heuristicStatuses.contains(status) else { return nil }
        return varying(response.headers, request)
    }

    /// The stored headers updated by a `304` (RFC 9111 section 3.2): each field it carries
    /// replaces the stored ones of that name, except `Content-Length` and hop-by-hop fields.
    static func merging(_ stored: HTTPHeaders, with notModified: HTTPHeaders) -> HTTPHeaders {
        var merged = stored
        var replaced: Set<String> = []
        for field in notModified {
            let name = field.name.lowercased()
            guard name != "content-length", !hopByHop.contains(name) else { continue }
            if replaced.insert(name).inserted { merged.remove(field.name) }
            merged.add(field.name, field.value)
        }
        return merged
    }

    /// `headers` without the hop-by-hop fields and those `Connection` names.
    static func storable(_ headers: HTTPHeaders) -> HTTPHeaders {
        // `keep-alive` and `close`, the usual values, name no field that is not dropped already.
        let named = headers.values(for: "Connection").flatMap { value in
            value.equalsIgnoringASCIICase("keep-alive") || value.equalsIgnoringASCIICase("close")
                ? [] : Substring(value).fieldNames
        }
        // Compared without case byte by byte: lowercasing each name costs more than the rest.
        func dropped(_ name: String) -> Bool {
            hopByHop.contains { name.equalsIgnoringASCIICase($0) }
                || named.contains { name.equalsIgnoringASCIICase($0) }
        }
        guard headers.contains(where: { dropped($0.name) }) else { return headers }
        return HTTPHeaders(headers.filter { !dropped($0.name) }.map { ($0.name, $0.value) })
    }
}
