import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// The caching layer over a spy: storing, freshness and validation (RFC 9111 sections 3 and 4).
@Suite struct CachingLayerTests {
    @Test func aFreshResponseIsServedFromTheCacheBeforePerformReturns() throws {
        // Given a response fresh for 60 s, stored by a first GET
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "ETag": "\"v1\""]))
        let first = try #require(fixture.get())
        #expect(first.metrics.cache == .miss)

        // When the same resource is asked for 30 s later, by another request value
        fixture.clock.advance(seconds: 30)
        let second = resource(headers: ["X-Caller": "two"])
        let response = try #require(fixture.get(second))

        // Then it came from the cache, with its age, for the second caller's request, and the spy saw one call
        #expect(fixture.spy.calls.count == 1)
        #expect(response.metrics.cache == .hit)
        #expect(response.text == "stored body" && response.status == 200)
        #expect(response.headers["Age"] == "30")
        #expect((response.request as? BasicRequest)?.headers == second.headers)
    }

    @Test func theFragmentIsNotPartOfWhatIsStored() throws {
        // Given a response stored for a URL with a fragment
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))
        _ = fixture.get(resource("/items/1#top"))

        // When the URL is asked for without its fragment, with another, and a different path
        let bare = try #require(fixture.get(resource("/items/1")))
        let other = try #require(fixture.get(resource("/items/1#bottom")))
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "two"))
        let second = try #require(fixture.get(resource("/items/2#top")))

        // Then the first two were hits and the other path went to the server
        #expect(bare.metrics.cache == .hit && other.metrics.cache == .hit)
        #expect(second.metrics.cache == .miss && second.text == "two")
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func aStaleResponseIsRevalidatedAndA304AnswersWithTheStoredBody() throws {
        // Given a response with an ETag, fresh for 60 s
        let fixture = CacheFixture()
        fixture.next(
            fixture.answer(
                200,
                [
                    "Cache-Control": "max-age=60", "ETag": "\"v1\"", "X-Version": "1",
                    "Content-Length": "11",
                ]))
        _ = fixture.get()

        // When it is asked for after 61 s and the server answers 304 with new header values
        fixture.clock.advance(seconds: 61)
        fixture.next(
            fixture.answer(
                304,
                [
                    "ETag": "\"v1\"", "X-Version": "2", "Cache-Control": "max-age=120",
                    "Content-Length": "0",
                ], body: ""))
        let response = try #require(fixture.get())

        // Then the server was asked with If-None-Match, and the caller got the stored body
        // with the updated headers (but the stored Content-Length), marked revalidated
        #expect(fixture.sentHeader("If-None-Match", of: 1) == "\"v1\"")
        #expect(response.status == 200 && response.text == "stored body")
        #expect(response.metrics.cache == .revalidated)
        #expect(response.headers["X-Version"] == "2")
        #expect(response.headers["Content-Length"] == "11")

        // and the updated entry is fresh again for the new max-age
        fixture.clock.advance(seconds: 100)
        #expect(fixture.get()?.metrics.cache == .hit)
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func lastModifiedIsSentAsIfModifiedSince() throws {
        // Given a stale response with only a Last-Modified
        let fixture = CacheFixture()
        let modified = "Tue, 14 Nov 2023 22:13:20 GMT"
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=0", "Last-Modified": modified]))
        _ = fixture.get()

        // When it is asked for again
        fixture.next(fixture.answer(304, [:], body: ""))
        let response = try #require(fixture.get())

        // Then the request was conditional on it
        #expect(fixture.sentHeader("If-Modified-Since", of: 1) == modified)
        #expect(fixture.sentHeader("If-None-Match", of: 1) == nil)
        #expect(response.metrics.cache == .revalidated && response.text == "stored body")
    }

    @Test func a200ToARevalidationReplacesTheEntry() throws {
        // Given a stale entry
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=0", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When the revalidation gets a new representation, fresh for 60 s
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "ETag": "\"v2\""], body: "new body"))
        let response = try #require(fixture.get())

        // Then the caller got it, and it is served from the cache next
        #expect(response.text == "new body" && response.metrics.cache == .miss)
        #expect(fixture.get()?.text == "new body")
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func noStoreIsNeverStored() {
        // Given a response that says no-store
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "no-store, max-age=60"]))
        fixture.next(fixture.answer(200, ["Cache-Control": "no-store, max-age=60"]))

        // When it is asked for twice
        _ = fixture.get()
        let second = fixture.get()

        // Then both went to the server
        #expect(fixture.spy.calls.count == 2)
        #expect(second?.metrics.cache == .miss)
        #expect(fixture.storage.count == 0)
    }

    @Test func noCacheIsStoredButRevalidatedEveryTime() throws {
        // Given a response that says no-cache, with max-age
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "no-cache, max-age=600", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When it is asked for at once
        fixture.next(fixture.answer(304, ["ETag": "\"v1\""], body: ""))
        let response = try #require(fixture.get())

        // Then it was revalidated even though it is fresh
        #expect(fixture.sentHeader("If-None-Match", of: 1) == "\"v1\"")
        #expect(response.metrics.cache == .revalidated)
    }

    @Test func expiresMinusDateIsTheLifetime() {
        // Given a response that expires 100 s after its Date
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Expires": httpDate(fixture.clock.now + 100), "ETag": "\"v1\""]))
        _ = fixture.get()

        // When it is asked for after 99 s, then after 101 s
        let served = fixture.served(after: 99, thenAfter: 2)

        // Then it was a hit, then revalidated
        #expect(served == (.hit, .revalidated))
    }

    @Test func maxAgeWinsOverExpires() {
        // Given a response with max-age=10 and an Expires a day away
        let fixture = CacheFixture()
        fixture.next(
            fixture.answer(200, ["Cache-Control": "max-age=10", "Expires": httpDate(fixture.clock.now + 86_400)]))
        _ = fixture.get()

        // When it is asked for after 11 s
        fixture.clock.advance(seconds: 11)
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=10"], body: "again"))
        let response = fixture.get()

        // Then it went to the server (no validator: a plain GET)
        #expect(response?.text == "again")
        #expect(fixture.sentHeader("If-None-Match", of: 1) == nil)
    }

    @Test func theAgeFieldCountsAgainstTheLifetime() {
        // Given a response fresh for 60 s that was already 50 s old when it arrived
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "Age": "50", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When it is asked for 9 s later, then 2 s after that
        fixture.clock.advance(seconds: 9)
        let fresh = fixture.get()
        fixture.clock.advance(seconds: 2)
        fixture.next(fixture.answer(304, [:], body: ""))
        let stale = fixture.get()

        // Then it was fresh, then stale
        #expect(fresh?.metrics.cache == .hit && fresh?.headers["Age"] == "59")
        #expect(stale?.metrics.cache == .revalidated)
    }

    @Test func withoutExplicitFreshnessNothingIsGuessedUnlessAsked() {
        // Given a 200 with a Last-Modified ten days old and no max-age or Expires
        let modified = httpDate(Date(timeIntervalSince1970: 1_700_000_000 - 864_000))
        let plain = CacheFixture()
        plain.next(plain.answer(200, ["Last-Modified": modified]))
        _ = plain.get()
        let guessing = CacheFixture(heuristicFraction: 0.1)
        guessing.next(guessing.answer(200, ["Last-Modified": modified]))
        _ = guessing.get()

        // When each is asked for again an hour later
        plain.clock.advance(seconds: 3600)
        guessing.clock.advance(seconds: 3600)
        plain.next(plain.answer(304, [:], body: ""))
        let revalidated = plain.get()
        let guessed = guessing.get()

        // Then without a heuristic it is revalidated; with 10 % of ten days it is fresh for a day
        #expect(revalidated?.metrics.cache == .revalidated)
        #expect(guessed?.metrics.cache == .hit)
        guessing.clock.advance(seconds: 86_400)
        guessing.next(guessing.answer(304, [:], body: ""))
        #expect(guessing.get()?.metrics.cache == .revalidated)
    }

    @Test(arguments: ["private, max-age=60", "public, max-age=60"])
    func privateAndPublicResponsesAreStored(_ cacheControl: String) {
        // Given a response marked private or public
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": cacheControl]))
        _ = fixture.get()

        // When it is asked for again
        let response = fixture.get()

        // Then it came from this private cache
        #expect(response?.metrics.cache == .hit)
    }

    @Test func aStatusNotCacheableByDefaultNeedsExplicitFreshness() {
        // Given a 302 and a 500 without freshness, and a 500 with max-age
        let fixture = CacheFixture()
        fixture.next(fixture.answer(302, ["Location": "/x"]))
        _ = fixture.get(resource("/a"))
        fixture.next(fixture.answer(500, [:]))
        _ = fixture.get(resource("/b"))
        fixture.next(fixture.answer(500, ["Cache-Control": "max-age=60"]))
        _ = fixture.get(resource("/c"))

        // Then only the one with freshness was stored
        #expect(fixture.storage.count == 1)
        #expect(fixture.get(resource("/c"))?.metrics.cache == .hit)
    }

    @Test func partialResponsesAreNotStored() {
        // Given a 206 with freshness
        let fixture = CacheFixture()
        fixture.next(fixture.answer(206, ["Cache-Control": "max-age=60"]))

        // When it arrives
        _ = fixture.get()

        // Then nothing was stored
        #expect(fixture.storage.count == 0)
    }

    @Test func aCallersOwnConditionalRequestPassesThrough() {
        // Given a stored fresh response
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When the caller sends its own If-None-Match
        fixture.next(fixture.answer(304, [:], body: ""))
        let response = fixture.get(resource(headers: ["If-None-Match": "\"v1\""]))

        // Then the server answered it as it is, and the entry is untouched
        #expect(response?.status == 304)
        #expect(response?.metrics.cache == nil)
        #expect(fixture.get()?.metrics.cache == .hit)
    }

    @Test func headAndGetAreStoredApart() {
        // Given a stored GET
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))
        _ = fixture.get()

        // When a HEAD of the same URL is made
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: ""))
        let head = fixture.get(resource(method: .head))

        // Then it went to the server, and is stored apart
        #expect(head?.metrics.cache == .miss)
        #expect(fixture.get(resource(method: .head))?.metrics.cache == .hit)
        #expect(fixture.storage.count == 2)
    }

    @Test func cancellingARevalidationCompletesItCancelled() throws {
        // Given a stale entry and a server that holds the revalidation
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=0", "ETag": "\"v1\""]))
        _ = fixture.get()
        fixture.next(.hold)
        let results = Recorder<Result<Response, any Error>>()

        // When the call is cancelled
        fixture.cache.perform(resource()) { results.record($0) }.cancel()

        // Then it completed once, cancelled, and the held request was cancelled
        #expect(fetchError(results.single)?.code == .cancelled)
        #expect(fixture.spy.pending.isEmpty)
    }

    @Test func aServerErrorDuringRevalidationIsDeliveredAndKeepsTheEntry() {
        // Given a stale entry
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=0", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When its revalidation gets a 503
        fixture.next(fixture.answer(503, [:], body: "busy"))
        let response = fixture.get()

        // Then the caller got the 503 and the entry is still there
        #expect(response?.status == 503)
        #expect(fixture.storage.count == 1)
    }

    @Test func failuresPassThrough() {
        // Given a server that fails
        let fixture = CacheFixture([.failure(.connectionLost)])

        // When a GET is made
        let result = performNow(fixture.cache, resource())

        // Then the failure reaches the caller, and nothing is stored
        #expect(fetchError(result)?.code == .connectionLost)
        #expect(fixture.storage.count == 0)
    }
}
