import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// Serving a stale response while revalidating it, or when revalidating it fails (RFC 5861).
@Suite struct CacheStaleServingTests {
    /// A fixture holding a response fresh for a second, with `cacheControl` added and an
    /// `ETag`, then `seconds` later.
    static func stored(_ cacheControl: String, thenAfter seconds: Double) -> CacheFixture {
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=1, \(cacheControl)", "ETag": "\"v1\""]))
        _ = fixture.get()
        fixture.clock.advance(seconds: seconds)
        return fixture
    }

    @Test func withinStaleWhileRevalidateTheStaleResponseIsServedAndRevalidatedOnceRFC5861Section3() throws {
        // Given a response 10 s stale whose stale-while-revalidate window is a minute, and a
        // server that holds its next answer
        let fixture = Self.stored("stale-while-revalidate=60", thenAfter: 11)
        fixture.next(.hold)

        // When it is asked for twice while the revalidation is in flight
        let first = fixture.get()
        let second = fixture.get()

        // Then both got the stale response at once, and one conditional request went out
        #expect(first?.metrics.cache == .hit && first?.text == "stored body")
        #expect(second?.metrics.cache == .hit && second?.headers["Age"] == "11")
        #expect(fixture.spy.calls.count == 2)
        #expect(fixture.sentHeader("If-None-Match", of: 1) == "\"v1\"")

        // When the server confirms it
        let held = try #require(fixture.spy.pending.first)
        held.respond(Response(status: 304, headers: ["Date": httpDate(fixture.clock.now)]))

        // Then it is fresh again: the next call is a hit that sends nothing
        #expect(fixture.get()?.headers["Age"] == "0")
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func aNewAnswerToTheBackgroundRevalidationReplacesTheStoredOne() {
        // Given a response within its stale-while-revalidate window
        let fixture = Self.stored("stale-while-revalidate=60", thenAfter: 11)

        // When it is served while the server sends a new version
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "new body"))
        let served = fixture.get()

        // Then the call got the stale one, and the next one the new one from storage
        #expect(served?.text == "stored body")
        let next = fixture.get()
        #expect(next?.text == "new body" && next?.metrics.cache == .hit)
    }

    @Test(arguments: ["stale-while-revalidate=5", "stale-while-revalidate=60, must-revalidate"])
    func pastTheWindowOrWithMustRevalidateTheServerIsAskedFirst(_ cacheControl: String) {
        // Given a response 10 s stale whose window has passed, or that must be revalidated
        let fixture = Self.stored(cacheControl, thenAfter: 11)

        // When it is asked for
        fixture.next(fixture.answer(304, [:], body: ""))
        let response = fixture.get()

        // Then the call waited for the revalidation
        #expect(response?.metrics.cache == .revalidated, "\(cacheControl)")
    }

    @Test(arguments: [500, 502, 503, 504])
    func withinStaleIfErrorAServerErrorGetsTheStaleResponseRFC5861Section4(_ status: Int) {
        // Given a response 10 s stale whose stale-if-error window is a minute
        let fixture = Self.stored("stale-if-error=60", thenAfter: 11)

        // When revalidating it meets a server error
        fixture.next(fixture.answer(status, [:], body: "error page"))
        let response = fixture.get()

        // Then the call got the stale response
        #expect(response?.status == 200 && response?.text == "stored body" && response?.metrics.cache == .hit)
    }

    @Test func withinStaleIfErrorAFailureGetsTheStaleResponse() {
        // Given a response within its stale-if-error window
        let fixture = Self.stored("stale-if-error=60", thenAfter: 11)

        // When revalidating it fails
        fixture.next(.failure(URLError(.notConnectedToInternet)))
        let response = fixture.get()

        // Then the call got the stale response
        #expect(response?.text == "stored body" && response?.metrics.cache == .hit)
    }

    @Test(arguments: [
        ("stale-if-error=5", 503), ("stale-if-error=60, must-revalidate", 503), ("stale-if-error=60", 501),
        ("", 503),
    ])
    func pastStaleIfErrorOrForAnotherStatusTheErrorIsDelivered(_ cacheControl: String, _ status: Int) {
        // Given a response 10 s stale whose window has passed, that must be revalidated, or
        // that allows nothing, or a status RFC 5861 does not count as an error
        let fixture = Self.stored(cacheControl, thenAfter: 11)

        // When revalidating it meets that status
        fixture.next(fixture.answer(status, [:], body: "error page"))
        let response = fixture.get()

        // Then the call got it
        #expect(response?.status == status && response?.text == "error page", "\(cacheControl)")
    }
}
