import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// Malformed or hostile cache headers: a documented outcome, never a crash, never a response
/// served that RFC 9111 forbids.
@Suite struct CacheBadInputTests {
    @Test(arguments: [
        "max-age=abc", "max-age=-5", "max-age=", "max-age=0, max-age=3600", "max-age=1.", "max-age=.5",
        "max-age=1.5s", "max-age=\"\"",
    ])
    func aMalformedMaxAgeMakesTheResponseStale(_ cacheControl: String) {
        // Given a response whose max-age cannot be trusted
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": cacheControl, "ETag": "\"v1\""]))
        _ = fixture.get()

        // When it is asked for again at once
        fixture.next(fixture.answer(304, [:], body: ""))
        let response = fixture.get()

        // Then it was revalidated rather than served
        #expect(response?.metrics.cache == .revalidated, "\(cacheControl)")
    }

    @Test func aRepeatedMaxAgeWithTheSameValueIsKept() {
        // Given two max-age fields that agree
        let fixture = CacheFixture()
        fixture.next(
            fixture.answer(200, HTTPHeaders([("Cache-Control", "max-age=60"), ("Cache-Control", "max-age=60")])))
        _ = fixture.get()

        // Then the response is fresh
        #expect(fixture.get()?.metrics.cache == .hit)
    }

    @Test(arguments: [", , max-age=60,,", "MAX-AGE=60", "foo, max-age=60, bar=\"x,y\"", "max-age=\"60\""])
    func oddButReadableCacheControlIsRead(_ cacheControl: String) {
        // Given a Cache-Control with empty parts, capitals, unknown directives or a quoted value
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": cacheControl]))
        _ = fixture.get()

        // Then its max-age counts
        #expect(fixture.get()?.metrics.cache == .hit, "\(cacheControl)")
    }

    @Test func aHugeMaxAgeCountsAsTwoToTheThirtyFirstSeconds() {
        // Given a max-age far beyond what an Int holds
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=99999999999999999999999999", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When it is asked for after 60 years, then after 70 (2^31 s is about 68 years)
        fixture.clock.advance(seconds: 60 * 365 * 86_400)
        let sixty = fixture.get()
        fixture.clock.advance(seconds: 10 * 365 * 86_400)
        fixture.next(fixture.answer(304, [:], body: ""))
        let seventy = fixture.get()

        // Then it was fresh, then stale: no overflow, no crash
        #expect(sixty?.metrics.cache == .hit)
        #expect(seventy?.metrics.cache == .revalidated)
    }

    @Test(arguments: ["0", "-1", "yesterday", "Thu, 32 Nov 2023 00:00:00 GMT", "Wed, 29 Feb 2023 00:00:00 GMT"])
    func anExpiresThatIsNotADateMeansAlreadyExpired(_ expires: String) {
        // Given a response whose Expires is not a date
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Expires": expires, "ETag": "\"v1\""]))
        _ = fixture.get()

        // When it is asked for again at once
        fixture.next(fixture.answer(304, [:], body: ""))
        let response = fixture.get()

        // Then it was revalidated
        #expect(response?.metrics.cache == .revalidated, "\(expires)")
    }

    @Test func aMalformedDateCountsAsTheMomentOfArrival() {
        // Given a response fresh for 60 s whose Date is garbage
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "Date": "not a date", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When it is asked for after 59 s, then after 61 s
        let served = fixture.served(after: 59, thenAfter: 2)

        // Then its age counted from its arrival
        #expect(served == (.hit, .revalidated))
    }

    @Test func aDateInTheFutureDoesNotMakeTheAgeNegative() {
        // Given a response dated an hour ahead of the clock, fresh for 60 s
        let fixture = CacheFixture()
        fixture.next(
            fixture.answer(
                200,
                [
                    "Cache-Control": "max-age=60", "Date": httpDate(fixture.clock.now + 3600),
                    "ETag": "\"v1\"",
                ]))
        _ = fixture.get()

        // When it is asked for after 61 s
        fixture.clock.advance(seconds: 61)
        fixture.next(fixture.answer(304, [:], body: ""))

        // Then it is stale, as its own arrival says
        #expect(fixture.get()?.metrics.cache == .revalidated)
    }

    @Test func a304WithoutAStoredEntryIsDeliveredAsItIs() {
        // Given a server that answers an unconditional GET with 304
        let fixture = CacheFixture()
        fixture.next(fixture.answer(304, ["Cache-Control": "max-age=60", "ETag": "\"v1\""], body: ""))

        // When the GET is made
        let response = fixture.get()

        // Then the 304 reaches the caller, and nothing is stored
        #expect(response?.status == 304 && response?.metrics.cache == .miss)
        #expect(fixture.storage.count == 0)
    }

    @Test func a304ForAnotherRepresentationSendsTheRequestAgain() {
        // Given a stale entry tagged "v1"
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=0", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When its revalidation gets a 304 naming "v2", then a full answer
        fixture.next(fixture.answer(304, ["ETag": "\"v2\""], body: ""))
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "ETag": "\"v2\""], body: "v2 body"))
        let response = fixture.get()

        // Then the stored body was not served: the request went again without conditions
        #expect(response?.text == "v2 body" && response?.metrics.cache == .miss)
        #expect(fixture.spy.calls.count == 3)
        #expect(fixture.sentHeader("If-None-Match", of: 2) == nil)
    }

    @Test func aStoredValidatorThatCannotBeSentRevalidatesWithoutConditions() {
        // Given a stale entry whose entity tag holds a control character (DEL), which no request may send
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=0", "ETag": "\"v\u{7F}1\""], body: "old"))
        _ = fixture.get()

        // When it is asked for again
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "new"))
        let response = fixture.get()

        // Then the request went without conditions and its answer came back
        #expect(response?.text == "new" && response?.metrics.cache == .miss)
        #expect(fixture.spy.calls.count == 2)
        #expect(fixture.sentHeader("If-None-Match", of: 1) == nil)
    }

    @Test func a304ThatSaysNoStoreRemovesTheEntry() {
        // Given a stale entry
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=0", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When its revalidation's 304 says no-store
        fixture.next(fixture.answer(304, ["Cache-Control": "no-store"], body: ""))
        let response = fixture.get()

        // Then the caller got the stored body once, and it is no longer stored
        #expect(response?.text == "stored body")
        #expect(fixture.storage.count == 0)
    }

    @Test func hopByHopFieldsAreNotStored() {
        // Given a response with hop-by-hop fields, one named by Connection
        let fixture = CacheFixture()
        fixture.next(
            fixture.answer(
                200,
                [
                    "Cache-Control": "max-age=60", "Connection": "X-Trace", "X-Trace": "1",
                    "Keep-Alive": "timeout=5", "X-Kept": "yes",
                ]))
        _ = fixture.get()

        // When it is served from the cache
        let response = fixture.get()

        // Then only the end-to-end fields are there
        #expect(response?.headers["X-Kept"] == "yes")
        #expect(
            response?.headers["X-Trace"] == nil && response?.headers["Keep-Alive"] == nil
                && response?.headers["Connection"] == nil)
    }
}
