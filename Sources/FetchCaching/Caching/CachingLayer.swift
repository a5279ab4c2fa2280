import Fetch

/// A private HTTP cache (RFC 9111) as a layer: it answers GET and HEAD calls from stored responses while they are
/// fresh, revalidates stale ones with a conditional request, and stores what the server allows. Made by
/// `RequestPerforming.caching(_:)`; the Caching article has the rules. Put it below the enhancers that set
/// credentials and the fields a server varies on: a stored response answers only the same credentials.
///
/// A fresh hit is served on the queue the performer below calls back on (`RequestPerforming.completionQueue(for:)`),
/// or before `perform` returns when it names none; nothing goes below. A relative URL is keyed as the `BaseURL`
/// that applies (also in a layer below) makes it; one that no base URL resolves is never cached.
public struct CachingLayer: PreparingLayer {
    /// Storage, clock and heuristics.
    public let configuration: CacheConfiguration

    /// A cache with `configuration`: storage (a 10 MiB ``MemoryCacheStorage`` by default), clock and heuristics.
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
        case .plain where request.body == nil: break
        case .plain, .download, .upload, .stream:
            // A body that is never whole in memory, or one the call sends: nothing to store.
            return next.perform(request, completion: completion)
        }
        // Built once for the key and every layer below; checked only when it goes below.
        let prepared = next.prepare(request)
        guard let urlRequest = prepared.urlRequest, let url = prepared.url else {
            return next.perform(prepared.request, completion: completion)
        }
        // Read once: most requests have no fields, and each lookup by name is costly.
        let fields = urlRequest.allHTTPHeaderFields ?? [:]
        let (conditional, range) = fields.isEmpty ? (false, nil) : Self.ownConditions(fields)
        if conditional { return next.perform(prepared.checked().request, completion: completion) }
        let directives = CacheDirectives(fieldValue: fields.isEmpty ? nil : fields.field(named: "Cache-Control")?.value)
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
            found = all.lazy.map { ($0, use($0)) }.first { $0.1 != .unusable }
            if found == nil { variants = all.filter { $0.entityTag != nil } }
        }
        if let range {
            // A range comes from a fresh whole response, or from the server as the caller asked.
            if let (stored, decision) = found, decision == .serve,
                let partial = CacheRange.partial(of: CacheExchange.hit(stored, answering: request, at: now), range)
            {
                completion(.success(partial))
                return NothingToCancel()
            }
            return next.perform(prepared.checked().request, completion: completion)
        }
        if let (stored, decision) = found {
            switch decision {
            case .serve, .serveAndRevalidate:
                // Delivered where the performer below would call back (see `Layer`).
                completion(.success(CacheExchange.hit(stored, answering: request, at: now)))
                guard decision == .serveAndRevalidate else { return NothingToCancel() }
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

    /// Whether the caller made the request conditional itself, and the `Range` it asks for.
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
    /// This performer behind a private HTTP cache (RFC 9111) with `configuration`: storage (a 10 MiB
    /// ``MemoryCacheStorage`` by default), clock and heuristics.
    public func caching(_ configuration: CacheConfiguration = CacheConfiguration()) -> LayeredPerformer {
        layered(CachingLayer(configuration))
    }
}
