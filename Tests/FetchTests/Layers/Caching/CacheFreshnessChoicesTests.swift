import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// Where RFC 9111 lets a cache choose how it reads freshness: `Age` lists and bad values,
/// repeated directives, and the heuristic for responses without explicit freshness.
@Suite struct CacheFreshnessChoicesTests {
    /// Stores a response with `headers` (and an `ETag`, so that a stale one is revalidated),
    /// asks for it again at once, and says how the cache served it.
    static func servedAgainAtOnce(_ headers: HTTPHeaders) -> CacheStatus? {
        let fixture = CacheFixture()
        var stored = headers
        stored.add("ETag", "\"v1\"")
        fixture.next(fixture.answer(200, stored))
        _ = fixture.get()
        fixture.next(fixture.answer(304, [:], body: ""))
        return fixture.get()?.metrics.cache
    }

    @Test(arguments: ["abc", "-7200", "7200.0", "1e3", ""])
    func anAgeThatIsNotANonNegativeIntegerIsIgnoredRFC9111Section5_1(_ age: String) {
        // Given a response fresh for an hour whose Age is not a non-negative integer
        // When it is asked for again at once
        let served = Self.servedAgainAtOnce(["Cache-Control": "max-age=3600", "Age": age])
        // Then the Age is ignored: the response is fresh
        #expect(served == .hit, "\(age)")
    }

    @Test(arguments: [
        (["Age": "0, 7200"] as HTTPHeaders, CacheStatus.hit),
        (["Age": "7200, 0"] as HTTPHeaders, .revalidated),
        (HTTPHeaders([("Age", "0"), ("Age", "7200")]), .hit),
        (HTTPHeaders([("Age", "7200"), ("Age", "0")]), .revalidated),
    ])
    func theFirstMemberOfAnAgeListCountsRFC9111Section5_1(_ age: HTTPHeaders, _ expected: CacheStatus) {
        // Given a response fresh for an hour with an Age list, on one line or two (which
        // URLSession joins with ", ")
        var headers = age
        headers.add("Cache-Control", "max-age=3600")
        // When it is asked for again at once
        // Then only the first member counts: fresh at 0, stale at 7200
        #expect(Self.servedAgainAtOnce(headers) == expected, "\(age)")
    }

    @Test(arguments: [
        (["Cache-Control": "max-age=3600, max-age=0"] as HTTPHeaders, CacheStatus.hit),
        (HTTPHeaders([("Cache-Control", "max-age=3600"), ("Cache-Control", "max-age=0")]), .hit),
        (["Cache-Control": "max-age=0, max-age=3600"] as HTTPHeaders, .revalidated),
        (HTTPHeaders([("Cache-Control", "max-age=0"), ("Cache-Control", "max-age=3600")]), .revalidated),
    ])
    func aConflictingDuplicateMaxAgeKeepsTheFirstRFC9111Section4_2_1(_ headers: HTTPHeaders, _ expected: CacheStatus) {
        // Given a response with two max-age values, on one line or two
        // When it is asked for again at once
        // Then the first one counts, as Chrome and Safari read it
        #expect(Self.servedAgainAtOnce(headers) == expected, "\(headers)")
    }

    @Test(arguments: ["max-age=3600.0", "max-age=3600.5"])
    func aDecimalMaxAgeCountsItsWholeSeconds(_ cacheControl: String) {
        // Given a response whose max-age has a decimal fraction
        // When it is asked for again at once
        // Then it is fresh, as Firefox and Safari read it
        #expect(Self.servedAgainAtOnce(["Cache-Control": cacheControl]) == .hit, "\(cacheControl)")
    }

    /// A cache with the default configuration over a spy that answers `status` with a
    /// `Last-Modified` ten days old and no explicit freshness, asked for it again after
    /// `seconds`; and how it served that second call.
    static func heuristic(
        _ status: Int, _ configuration: (inout CacheConfiguration) -> Void = { _ in }, after seconds: Double
    ) -> CacheStatus? {
        let clock = TestClock()
        let modified = httpDate(clock.now.addingTimeInterval(-864_000))
        let spy = SpyPerformer([
            .response(
                Response(status: status, headers: ["Date": httpDate(clock.now), "Last-Modified": modified])),
            .response(Response(status: 304)),
        ])
        var settings = CacheConfiguration { clock.now }
        configuration(&settings)
        let cache = spy.caching(settings)
        _ = performNow(cache, resource())
        clock.advance(seconds: seconds)
        return performNow(cache, resource()).flatMap { try? $0.get() }?.metrics.cache
    }

    @Test(arguments: [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501])
    func heuristicFreshnessIsOnByDefaultAtTenPercentRFC9111Section4_2_2(_ status: Int) {
        // Given the default configuration and a response ten days past its Last-Modified
        // When it is asked for again after 23 hours, and (anew) after 25
        // Then it is fresh for a tenth of those ten days: one day
        #expect(Self.heuristic(status, after: 23 * 3600) == .hit, "\(status)")
        #expect(Self.heuristic(status, after: 25 * 3600) == .revalidated, "\(status)")
    }

    @Test(arguments: [nil, 0] as [Double?])
    func heuristicFreshnessTurnsOffWithNilOrZero(_ fraction: Double?) {
        // Given a configuration whose heuristic fraction is nil or 0
        // When a response with only a Last-Modified is asked for again a minute later
        let served = Self.heuristic(200, { $0.heuristicFraction = fraction }, after: 60)
        // Then nothing was guessed: it was revalidated
        #expect(served == .revalidated)
    }

    @Test(arguments: [201, 403, 502, 503])
    func heuristicFreshnessIsOnlyForStatusesCacheableByDefault(_ status: Int) {
        // Given the default configuration and a status not cacheable by default
        // When it is asked for again a minute later
        // Then it was not stored: it went to the server without conditions
        #expect(Self.heuristic(status, after: 60) == .miss, "\(status)")
    }
}
