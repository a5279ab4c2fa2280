import Fetch

/// One GET or HEAD call through a ``CachingLayer``: the request, its key and directives, and what comes back.
struct CacheExchange: Sendable {
    /// The request as this layer passes it on, checked.
    let prepared: PreparedRequest
    let urlRequest: URLRequest
    /// The credentials of `urlRequest`, as found when `key` was looked up.
    let partition: CachePartition
    let key: String
    let directives: CacheDirectives
    let configuration: CacheConfiguration

    /// The response `stored` gives to `request` at `now`, without asking the server.
    static func hit(_ stored: CachedResponse, answering request: any Request, at now: Date) -> Response {
        // RFC 9111 section 5.1: a stored response goes out with its age.
        let headers = stored.headers(withAge: Int(min(stored.currentAge(at: now), Double(Int32.max))))
        var metrics = ResponseMetrics()
        metrics.start = now
        metrics.total = .zero
        metrics.cache = .hit
        return Response(
            request: request, urlRequest: stored.sentRequest, status: stored.status, headers: headers,
            body: stored.body, url: stored.url, metrics: metrics)
    }

    var request: any Request { prepared.request }

    /// Sends the request through `next`, conditional on the validators of `stale` when it has some, else on the entity
    /// tags of `variants` (RFC 9111 section 4.3.1); stores what comes back and calls `completion` with it.
    func send(
        through next: any RequestPerforming, revalidating stale: CachedResponse?, variants: [CachedResponse] = [],
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let requestTime = configuration.clock()
        let validators =
            stale?.hasValidator == true
            ? stale.map(ConditionalHeaders.init) : variants.isEmpty ? nil : ConditionalHeaders(variants: variants)
        // Run again on a later attempt (a retry). Validators no request may carry (a control character in a tag) fail
        // the check in `adding`: the request then goes without conditions, and no one waits for that error.
        let conditioned = validators.flatMap { try? prepared.adding($0) }
        let isConditional = conditioned != nil
        return next.perform((conditioned ?? prepared).request) { result in
            let responseTime = configuration.clock()
            if let stale, let served = servedIfError(stale, after: result, at: responseTime) {
                return completion(.success(served))
            }
            guard case .success(let response) = result else { return completion(result) }
            guard isConditional, response.status == 304 else {
                return completion(.success(settle(response, requestTime: requestTime, responseTime: responseTime)))
            }
            guard let confirmed = Self.confirmed(by: response, stale, variants) else {
                // RFC 9111 section 4.3.4: a 304 for another representation updates nothing.
                if stale != nil { CacheVariants.removeAll(under: key, in: configuration.storage) }
                _ = send(through: next, revalidating: nil, completion: completion)
                return
            }
            completion(
                .success(revalidated(confirmed, by: response, requestTime: requestTime, responseTime: responseTime)))
        }
    }

    /// The stored response a `304` confirms (RFC 9111 section 4.3.4): `stale` unless it names
    /// another strong entity tag, else the variant it names (or the only one, naming none).
    private static func confirmed(by notModified: Response, _ stale: CachedResponse?, _ variants: [CachedResponse])
        -> CachedResponse?
    {
        let tag = notModified.headers.first("ETag")
        if let stale {
            guard let tag, !tag.hasPrefix("W/"), tag != stale.entityTag else { return stale }
            return nil
        }
        guard let tag else { return variants.count == 1 ? variants[0] : nil }
        return variants.first { $0.entityTag == tag }
    }

    /// Revalidates `stale`, already served (`stale-while-revalidate`, RFC 5861 section 3),
    /// with one request through `next` however many calls serve it meanwhile.
    func revalidateInBackground(_ stale: CachedResponse, through next: any RequestPerforming) {
        let (key, configuration) = (self.key, self.configuration)
        guard configuration.revalidating.withLock({ $0.insert(key).inserted }) else { return }
        _ = send(through: next, revalidating: stale) { _ in
            configuration.revalidating.withLock { _ = $0.remove(key) }
        }
    }

    /// `stale` as a hit at `now` when its revalidation failed (not by cancellation) or met a
    /// 500, 502, 503 or 504 within its `stale-if-error` window (RFC 5861 section 4).
    private func servedIfError(_ stale: CachedResponse, after result: Result<Response, any Error>, at now: Date)
        -> Response?
    {
        switch result {
        case .success(let response): guard [500, 502, 503, 504].contains(response.status) else { return nil }
        case .failure(let error): guard (error as? FetchError)?.code != .cancelled else { return nil }
        }
        let staleness =
            stale.currentAge(at: now) - stale.freshnessLifetime(heuristicFraction: configuration.heuristicFraction)
        guard CacheRules.isWithin(stale.directives.staleIfError, stale: staleness, of: stale) else { return nil }
        return Self.hit(stale, answering: request, at: now)
    }

    /// `stale` confirmed by `notModified`: stored with updated fields, served with its status and body.
    private func revalidated(_ stale: CachedResponse, by notModified: Response, requestTime: Date, responseTime: Date)
        -> Response
    {
        let headers = CacheRules.merging(stale.headers, with: CacheRules.storable(notModified.headers))
        let updated = CachedResponse(
            status: stale.status, headers: headers, body: stale.body, url: stale.url,
            sentRequest: notModified.urlRequest, varying: stale.varying, requestTime: requestTime,
            responseTime: responseTime)
        if updated.directives.noStore || directives.noStore || !isInPartition(notModified.urlRequest) {
            CacheVariants.removeAll(under: key, in: configuration.storage)
        } else {
            CacheVariants.store(updated, under: key, in: configuration.storage)
        }
        var metrics = notModified.metrics
        metrics.cache = .revalidated
        return Response(
            request: request, urlRequest: notModified.urlRequest, status: stale.status, headers: headers,
            body: stale.body, url: stale.url, metrics: metrics)
    }

    /// Stores `response` when it may be stored, and marks it as a miss. A `304` that answers
    /// no conditional request of this layer is delivered as it is and stored nowhere.
    private func settle(_ response: Response, requestTime: Date, responseTime: Date) -> Response {
        var delivered = response
        delivered.metrics.cache = .miss
        guard response.status != 304 else { return delivered }
        // First: it reads every field once, and the lookups below then read that list.
        let storable = CacheRules.storable(response.headers)
        let sentInPartition = isInPartition(response.urlRequest)
        if let varying = CacheRules.storedVarying(
            response, for: urlRequest, requestDirectives: directives, sentInPartition: sentInPartition)
        {
            let stored = CachedResponse(
                status: response.status, headers: storable, body: response.body, url: response.url,
                sentRequest: response.urlRequest, varying: varying, requestTime: requestTime,
                responseTime: responseTime)
            CacheVariants.store(stored, under: key, in: configuration.storage)
        } else if response.status < 500 {
            // A newer answer that may not be stored supersedes the stored ones.
            CacheVariants.removeAll(under: key, in: configuration.storage)
        }
        return delivered
    }

    /// Whether `sent` carries the credentials the request had as this layer built it: not
    /// when a layer below added or changed some, which a later lookup cannot see.
    private func isInPartition(_ sent: URLRequest) -> Bool {
        // The same fields (as a rule) make the same partition, with nothing to look up again.
        let fields = sent.allHTTPHeaderFields ?? [:]
        guard fields != urlRequest.allHTTPHeaderFields ?? [:] else { return true }
        return CachePartition.of(fields, request, configuration) == partition
    }
}
