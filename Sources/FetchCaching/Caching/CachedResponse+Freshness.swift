import Fetch

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
        switch expires {
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
        serverDate ?? responseTime
    }

    /// How old the response is at `now`, in seconds (RFC 9111 section 4.2.3).
    func currentAge(at now: Date) -> Double {
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedInitialAge = max(apparentAge, ageValue + responseDelay)
        return correctedInitialAge + max(0, now.timeIntervalSince(responseTime))
    }
}
