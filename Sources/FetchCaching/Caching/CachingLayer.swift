import Fetch

/// A private HTTP cache (RFC 9111) as a layer: it answers GET and HEAD calls from stored
/// responses while they are fresh, revalidates stale ones with a conditional request, and
/// stores what the server allows. Made by `RequestPerforming.caching(_:)`.
///
/// - **One private cache per set of credentials**: a stored response answers only requests
///   that carry the same credentials as the one that got it (`Authorization`, `Cookie`,
///   `Proxy-Authorization`, ``CacheConfiguration/sensitiveHeaders`` and the request's
///   `RequestOptions.sensitiveHeaders`), and requests without credentials share the
///   entries of requests without credentials. Storage keys name the credentials by an
///   identifier drawn at random, never in clear. Each partition follows the rules of a private cache: `private`
///   responses and responses to requests with `Authorization` are stored, `public` only
///   makes a status storable, `s-maxage` is ignored. A response sent with credentials that a
///   layer below added is not stored: a later call cannot be matched to them before it goes
///   below.
/// - **Stored**: final responses to GET and HEAD (one per method, URL and credentials, or up
///   to four variants of one when the response has `Vary`)
///   unless either side says `no-store`; statuses other than 200, 203, 204, 300, 301, 308,
///   404, 405, 410, 414 and 501 only with explicit freshness (`max-age`, `Expires`, `public`,
///   `private`). Never a `206`, a `304`, or a response with `Vary: *`.
/// - **Fresh** while its age is below its lifetime: `max-age`, else `Expires` minus `Date`,
///   else 10 % of the time since `Last-Modified` (``CacheConfiguration/heuristicFraction``,
///   for the statuses heuristically cacheable by default). Request directives `max-age`, `min-fresh`, `max-stale`, `no-cache` (and
///   `Pragma: no-cache`), `no-store` and `only-if-cached` are honoured.
/// - **Served fresh**: on the queue the performer below calls back on
///   (`RequestPerforming.completionQueue(for:)`: the call's own, else `Session`'s), or
///   before `perform` returns when it names none (the spy), with an `Age` field,
///   `ResponseMetrics.cache` `CacheStatus.hit`; nothing goes below.
/// - **Revalidated** when stale (or `no-cache`) and it has an `ETag` or `Last-Modified`:
///   `If-None-Match` / `If-Modified-Since` go below; a `304` updates the stored header
///   fields and answers with the stored status and body (`CacheStatus.revalidated`). A
///   `304` naming another strong `ETag` updates nothing: the call is sent again without
///   conditions. Any other answer replaces the entry (or removes it when it may not be
///   stored, unless it is a 5xx, which leaves the entry as it was). A response with
///   `no-cache="field, ..."` is served fresh without the fields it names, and with them
///   once revalidated.
/// - **Served stale** within `stale-while-revalidate`, revalidated in the background by one
///   request through the performer below; within `stale-if-error`, when revalidating fails
///   or meets a 500, 502, 503 or 504 (RFC 5861). Never with `must-revalidate`.
/// - **Vary**: a stored variant answers only a request with the same values of the fields
///   it names, as this layer sees them. Up to four variants of a URL are kept; when none
///   matches, the request below names their entity tags in `If-None-Match`, and a `304`
///   naming one of them answers with it (RFC 9111 section 4.3.1).
/// - **Ranges**: a call with one byte range in `Range` is answered `206` from a stored whole
///   `200` that is fresh; any other `Range` goes below as it is and is not stored.
/// - **Invalidated**: a 2xx or 3xx answer to any method other than GET, HEAD, OPTIONS and
///   TRACE removes what is stored for its URL, and for its `Location` and
///   `Content-Location` on the same origin, for the call's credentials and for calls without
///   any; other users' entries stay, as their own caches would.
/// - **Kinds** (`CallKind`): only a plain call is answered from storage or stored. A
///   download, an upload and a stream pass through untouched (a download's body goes to a
///   file and a stream's to its reader: the cache never has it whole); an unsafe method
///   invalidates whatever the kind.
/// - **Passed through untouched**: a call with its own conditional or `Range` header, a
///   body, or a request that does not build (the layer below reports why).
/// - **Relative URLs**: the URL stored, looked up and invalidated is the absolute one the call
///   is sent to, also when the `BaseURL` is in an enhancing layer below this one (as in
///   `Session().enhanced(by: BaseURL("https://api.example.com")).caching()`): such a call
///   goes below with its URL still relative, and that layer makes it absolute and checks it.
///   A relative URL that no such base URL resolves (none in the stack, or one hidden below a
///   performer of your own) is never cached: the call goes below as it is, and fails there.
///
/// Malformed input never fails a call: a malformed `max-age`, or an `Expires` that is not a
/// date (`0`), make the response stale; a repeated directive keeps its first value; an `Age`
/// that is not a non-negative integer is ignored; a `Date` that is not a date counts as the moment the response arrived; a `max-age` above 2^31 s counts as 2^31 s;
/// a `304` to a call that was not conditional is delivered as it is, and not stored.
///
/// The layer sees requests as the layers above it made them: put it below the enhancers
/// that set the header fields a server varies on (see the README.s recommended stack).
public struct CachingLayer: PreparingLayer {
    /// Storage, clock and heuristics.
    public let configuration: CacheConfiguration

    /// A cache with `configuration`.
    /// - Parameter configuration: storage (a 10 MiB ``MemoryCacheStorage`` by default),
    ///   clock and heuristics.
    public init(_ configuration: CacheConfiguration = CacheConfiguration()) {
        self.configuration = configuration
    }

    /// Answers `request` from the cache when it may, otherwise from `next`.
    public func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let options = request.options
        let method = request.method
        guard method == .get || method == .head else {
            if method == .options || method == .trace { return next.perform(request, completion: completion) }
            return performInvalidating(request, next: next, completion: completion)
        }
        switch options.kind {
        case .plain: break
        case .download, .upload, .stream:
            // The body goes to a file or to a reader, or the call sends one: this layer never
            // has a whole response to store, and answers none from storage.
            return next.perform(request, completion: completion)
        }
        guard request.body == nil else { return next.perform(request, completion: completion) }
        // Built once for this attempt: the cache key, and every layer below, use the same
        // request. Checked only when it goes below: a hit sends nothing.
        let prepared = next.prepare(request)
        guard let urlRequest = prepared.urlRequest, let url = prepared.url else {
            return next.perform(prepared.request, completion: completion)
        }
        // Read once: most requests have no fields, and each lookup by name costs as much as a hit.
        let fields = urlRequest.allHTTPHeaderFields ?? [:]
        let (conditional, range) = fields.isEmpty ? (false, nil) : Self.ownConditions(fields)
        if conditional {
            return next.perform(
                prepared.checked().request, completion: completion)
        }
        let directives = CacheDirectives(
            fieldValue: fields.isEmpty ? nil : fields.field(named: "Cache-Control")?.value)
        let partition = CachePartition.of(fields, request, configuration)
        let key = partition.key(method, url)
        // A request's `no-store` goes to the server, as in Firefox: RFC 9111 section 5.2.1.5
        // forbids storing the answer, and a stored response is not used either.
        let policy = directives.onlyIfCached ? .onlyIfCached : directives.noStore ? .reload : options.cachePolicy
        var stale: CachedResponse?
        // Stored variants of the URL that do not match the request but have an entity tag.
        var variants: [CachedResponse] = []
        // Served stale already: the request below only revalidates (`stale-while-revalidate`).
        var servedStale = false
        let now = configuration.clock()
        func use(_ stored: CachedResponse) -> CacheRules.Use {
            CacheRules.use(
                stored, for: urlRequest, hasFields: !fields.isEmpty, requestDirectives: directives, policy: policy,
                at: now, heuristicFraction: configuration.heuristicFraction)
        }
        var found = policy == .reload ? nil : configuration.storage.response(for: key).map { ($0, use($0)) }
        if policy != .reload, found == nil || found?.1 == .unusable {
            // Another variant of the URL may match (RFC 9111 section 4.1); when none does, the
            // request below names the stored ones' entity tags (section 4.3.1).
            let all =
                (found.map { [$0.0] } ?? []) + CacheVariants.others(of: key, first: found?.0, in: configuration.storage)
            if let match = all.first(where: { use($0) != .unusable }) {
                found = (match, use(match))
            } else {
                variants = all.filter { $0.entityTag != nil }
            }
        }
        if let range {
            // A range comes from a fresh whole response, or from the server as the caller asked.
            if let (stored, decision) = found, decision == .serve,
                let partial = CacheRange.partial(of: CacheExchange.hit(stored, answering: request, at: now), range)
            {
                completion(.success(partial))
                return NothingToCancel()
            }
            return next.perform(
                prepared.checked().request, completion: completion)
        }
        if let (stored, decision) = found {
            switch decision {
            case .serve:
                // Delivered where the performer below would call back (see `Layer`).
                completion(.success(CacheExchange.hit(stored, answering: request, at: now)))
                return NothingToCancel()
            case .serveAndRevalidate:
                completion(.success(CacheExchange.hit(stored, answering: request, at: now)))
                (stale, servedStale) = (stored, true)
            case .revalidate: stale = stored
            case .unusable: break
            }
        }
        if policy == .onlyIfCached {
            let miss = FetchError(
                .cacheMiss, reason: "only-if-cached, and no stored response may answer it", method: method,
                url: url, layer: name)
            completion(.failure(miss))
            return NothingToCancel()
        }
        let sent = prepared.checked()
        // A request that fails its checks fails below with the reason it carries.
        guard let checked = sent.urlRequest else {
            return servedStale ? NothingToCancel() : next.perform(sent.request, completion: completion)
        }
        let exchange = CacheExchange(
            prepared: sent, urlRequest: checked, partition: partition, key: key, directives: directives,
            configuration: configuration)
        if servedStale, let stale {
            exchange.revalidateInBackground(stale, through: next)
            return NothingToCancel()
        }
        return exchange.send(through: next, revalidating: stale, variants: variants, completion: completion)
    }

    /// Sends an unsafe request and, when it succeeds, forgets what is stored for its URL.
    private func performInvalidating(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let outgoing = next.prepare(request).checked()
        guard let urlRequest = outgoing.urlRequest, let url = outgoing.url else {
            return next.perform(outgoing.request, completion: completion)
        }
        // The caller's own entries, and those without credentials: other users' are theirs.
        let partitions: Set = [
            .common, CachePartition.of(urlRequest.allHTTPHeaderFields ?? [:], request, configuration),
        ]
        let storage = configuration.storage
        return next.perform(outgoing.request) { result in
            if case .success(let response) = result, (200..<400).contains(response.status) {
                let named = ["Location", "Content-Location"].compactMap { name in
                    response.headers.first(name).flatMap { URL(string: $0, relativeTo: url)?.absoluteURL }
                }
                // Only on the same origin: another origin's responses are not this one's to drop.
                for target in [url] + named.filter({ $0.isSameOrigin(as: url) }) {
                    for partition in partitions {
                        CacheVariants.removeAll(under: partition.key(.get, target), in: storage)
                        CacheVariants.removeAll(under: partition.key(.head, target), in: storage)
                    }
                }
            }
            completion(result)
        }
    }

    /// The storage key of `method` on `url`: the method, a space, the URL without its fragment,
    /// and, when there is one, a space and `identifier`.
    static func key(_ method: HTTPMethod, _ url: URL, identifier: String? = nil) -> String {
        var text = url.absoluteString
        // Searched as bytes, and at once when they are contiguous: walking Characters costs
        // more than the rest of a hit.
        let fragment =
            text.utf8.withContiguousStorageIfAvailable { bytes in
                bytes.baseAddress.flatMap { memchr($0, Int32(UInt8(ascii: "#")), bytes.count) } != nil
            } ?? text.utf8.contains(UInt8(ascii: "#"))
        if fragment, let index = text.utf8.firstIndex(of: UInt8(ascii: "#")) { text = String(text[..<index]) }
        let key = method.rawValue + " " + text
        return identifier.map { key + " " + $0 } ?? key
    }

    /// Whether the caller made the request conditional itself (such a call goes below as it
    /// is), and the `Range` it asks for, if any.
    private static func ownConditions(_ fields: [String: String]) -> (conditional: Bool, range: String?) {
        var range: String?
        for (name, value) in fields {
            switch name.lowercased() {
            case "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range": return (true, nil)
            case "range": range = value
            default: continue
            }
        }
        return (false, range)
    }
}

extension RequestPerforming {
    /// This performer behind a private HTTP cache (RFC 9111), in memory by default (see
    /// ``CachingLayer``).
    ///
    /// ```swift
    /// let api = Session().retrying(.exponential(maxAttempts: 3)).caching().coalescing()
    /// ```
    /// - Parameter configuration: storage (a 10 MiB ``MemoryCacheStorage`` by default),
    ///   clock and heuristics.
    /// - Returns: the caching performer.
    public func caching(_ configuration: CacheConfiguration = CacheConfiguration()) -> LayeredPerformer {
        layered(CachingLayer(configuration))
    }
}
