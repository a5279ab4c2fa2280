import Fetch

/// A response as a ``CacheStorage`` keeps it, and as a storage of your own writes and reads it back. Its fields are
/// read-only: the header fields a cache needs are parsed once, when it is made, so a hit parses nothing.
public struct CachedResponse: Sendable {
    /// One immutable object, so a hit copies one reference out of storage, not a dozen fields.
    private let stored: Stored

    /// The status.
    public var status: Int { stored.fields.status }
    /// The header fields as stored: hop-by-hop fields removed, updated by each `304`.
    public var headers: HTTPHeaders { stored.fields.headers }
    /// The body.
    public var body: Data { stored.fields.body }
    /// The URL the response came from.
    public var url: URL? { stored.fields.url }
    /// The request that was sent for it (its last validation's, after a `304`).
    public var sentRequest: URLRequest { stored.fields.sentRequest }
    /// The request header fields the response varies on (its `Vary` field), with the values
    /// the request that got it carried (`nil` for a field it did not carry).
    public var varying: [String: String?] { stored.fields.varying }
    /// When the request that got it was sent, on the cache's clock.
    public var requestTime: Date { stored.fields.requestTime }
    /// When it arrived, on the cache's clock.
    public var responseTime: Date { stored.fields.responseTime }

    /// Makes a stored response.
    public init(
        status: Int, headers: HTTPHeaders, body: Data, url: URL?, sentRequest: URLRequest,
        varying: [String: String?], requestTime: Date, responseTime: Date
    ) {
        stored = Stored(
            Fields(
                status: status, headers: headers, body: body, url: url, sentRequest: sentRequest, varying: varying,
                requestTime: requestTime, responseTime: responseTime))
    }

    var directives: CacheDirectives { stored.directives }
    /// Its header fields without those its `no-cache="..."` names (RFC 9111 section 5.2.2.4), with
    /// `Age` set to `age` seconds, as a hit serves them; reused within the same second.
    func headers(withAge age: Int) -> HTTPHeaders { stored.headers(withAge: age) }

    private struct Fields: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: Data
        let url: URL?
        let sentRequest: URLRequest
        let varying: [String: String?]
        let requestTime: Date
        let responseTime: Date
    }

    private final class Stored: Sendable {
        let fields: Fields
        let directives: CacheDirectives
        let servedHeaders: HTTPHeaders
        let serverDate: Date?
        /// Invalid when not a date (`0`), or several that disagree (already expired).
        let expires: FieldReading<Date>
        /// 0 when absent or malformed.
        let ageValue: Double
        private let lastServed = Guarded<(age: Int, headers: HTTPHeaders)?>(nil)

        init(_ fields: Fields) {
            self.fields = fields
            let headers = fields.headers
            directives = CacheDirectives(headers)
            var served = headers
            for name in directives.noCacheFields { served.remove(name) }
            servedHeaders = served
            serverDate = headers.first("Date").flatMap(HTTPDate.parse)
            let expiresFields = headers.values(for: "Expires")
            expires =
                expiresFields.isEmpty
                ? .absent
                : Set(expiresFields).count == 1
                    ? HTTPDate.parse(expiresFields[0]).map { .value($0) } ?? .invalid : .invalid
            // The first member of the list (two lines arrive joined with ", "), RFC 9111 section 5.1.
            let age = CacheDirectives.seconds(headers.first("Age")?.prefix { $0 != "," }.trimmingSpaces)
            ageValue = if case .value(let seconds) = age { Double(seconds) } else { 0 }
        }

        func headers(withAge age: Int) -> HTTPHeaders {
            lastServed.withLock { last in
                if let last, last.age == age { return last.headers }
                var headers = servedHeaders
                headers.set("Age", String(age))
                last = (age, headers)
                return headers
            }
        }
    }

    /// Roughly how many bytes it holds: its body, its header fields, its URL, and a fixed
    /// allowance for the rest. A ``MemoryCacheStorage`` counts entries by this.
    public var cost: Int {
        // One more list of the fields (as last served, with its `Age`) shares their strings.
        var total = 256 + body.count + (url?.absoluteString.utf8.count ?? 0) + 32 * headers.count
        for field in headers { total += field.name.utf8.count + field.value.utf8.count + 4 }
        for (name, value) in varying { total += name.utf8.count + (value?.utf8.count ?? 0) }
        return total
    }

    var entityTag: String? { headers.first("ETag") }
    var lastModified: String? { headers.first("Last-Modified") }
    var hasValidator: Bool { entityTag != nil || lastModified != nil }
}

extension CachedResponse {
    /// How long the response stays fresh, in seconds (RFC 9111 section 4.2.1): its `max-age`,
    /// else `Expires` minus `Date`, else `heuristicFraction` of the time since `Last-Modified`
    /// when its status allows a guess, else 0; 0 too for an invalid `max-age` or `Expires`.
    func freshnessLifetime(heuristicFraction: Double?) -> Double {
        switch directives.maxAge {
        case .value(let seconds): return Double(seconds)
        case .invalid: return 0
        case .absent: break
        }
        switch stored.expires {
        case .value(let date):
            return max(0, min(date.timeIntervalSince(dateValue), Double(CacheDirectives.greatestSeconds)))
        case .invalid: return 0
        case .absent: break
        }
        guard let fraction = heuristicFraction, fraction > 0, Self.heuristicStatuses.contains(status),
            let modified = lastModified.flatMap(HTTPDate.parse)
        else { return 0 }
        return max(0, min(dateValue.timeIntervalSince(modified) * fraction, Double(CacheDirectives.greatestSeconds)))
    }

    /// The statuses heuristically cacheable by default, whose freshness may be guessed (RFC 9110 section 15.1).
    static let heuristicStatuses: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The `Date` the server sent, or when the response arrived when it sent none that parses.
    var dateValue: Date {
        stored.serverDate ?? responseTime
    }

    /// How old the response is at `now`, in seconds (RFC 9111 section 4.2.3).
    func currentAge(at now: Date) -> Double {
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, stored.ageValue + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }
}
