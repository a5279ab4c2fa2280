import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// Vary, credentials, invalidation, per-request policies and request directives.
@Suite struct CacheRulesTests {
    // MARK: Vary

    @Test func varyServesOnlyRequestsWithTheSameValues() {
        // Given a response that varies on Accept-Language, stored for "en"
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], body: "hello"))
        _ = fixture.get(resource(headers: ["Accept-Language": "en"]))

        // When "en" (spaced differently) and then "fr" are asked for
        let english = fixture.get(resource(headers: ["accept-language": "en"]))
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], body: "bonjour"))
        let french = fixture.get(resource(headers: ["Accept-Language": "fr"]))

        // Then "en" was a hit and "fr" went to the server, and its answer replaced the stored one
        #expect(english?.metrics.cache == .hit && english?.text == "hello")
        #expect(french?.metrics.cache == .miss && french?.text == "bonjour")
        #expect(fixture.get(resource(headers: ["Accept-Language": "fr"]))?.metrics.cache == .hit)
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func aFieldAbsentFromBothRequestsMatches() {
        // Given a response varying on a field the request did not carry
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "Vary": "X-Mode"]))
        _ = fixture.get()

        // When the same request without it is made, and one with it
        let without = fixture.get()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "Vary": "X-Mode"]))
        let with = fixture.get(resource(headers: ["X-Mode": "dark"]))

        // Then the first matched, the second did not
        #expect(without?.metrics.cache == .hit)
        #expect(with?.metrics.cache == .miss)
    }

    @Test func aRequestWithoutFieldsDoesNotMatchAStoredValue() {
        // Given a response that varies on Accept-Language, stored for "en"
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "Vary": "Accept-Language"], body: "hello"))
        _ = fixture.get(resource(headers: ["Accept-Language": "en"]))

        // When a request with no header fields at all asks for it
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "plain"))
        let plain = fixture.get(resource())

        // Then it went to the server
        #expect(plain?.metrics.cache == .miss && plain?.text == "plain")
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func varyStarIsNeverStored() {
        // Given a response with Vary: *
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "Vary": "*"]))

        // When it arrives
        let response = fixture.get()

        // Then it is delivered and not stored
        #expect(response?.text == "stored body")
        #expect(fixture.storage.count == 0)
    }

    // MARK: Credentials and the directives of a private cache

    @Test func everyCacheableResponseToACredentialedRequestIsStoredForItsCredentials() {
        // Given responses to requests with Authorization: max-age only, public, must-revalidate, private
        let fixture = CacheFixture()
        let auth: HTTPHeaders = ["Authorization": "Bearer secret"]
        let paths = [
            "/plain": "max-age=60", "/public": "public, max-age=60", "/revalidate": "must-revalidate, max-age=60",
            "/private": "private, max-age=60",
        ]
        for (path, cacheControl) in paths {
            fixture.next(fixture.answer(200, ["Cache-Control": cacheControl, "ETag": "\"v1\""]))
            _ = fixture.get(resource(path, headers: auth))
        }

        // Then each was stored in the partition of those credentials, and answers them
        #expect(fixture.storage.count == 4)
        #expect(fixture.storage.response(for: "GET https://api.example.com/plain") == nil)
        for path in paths.keys {
            #expect(fixture.get(resource(path, headers: auth))?.metrics.cache == .hit, "\(path)")
        }
        #expect(fixture.spy.calls.count == 4)
    }

    @Test func authorizationAddedBelowTheCacheCounts() {
        // Given a bearer token added below the caching layer
        let spy = SpyPerformer()
        let clock = TestClock()
        let storage = MemoryCacheStorage()
        let api = spy.enhanced(by: BearerToken(TokenStore("secret")))
            .caching(CacheConfiguration(storage: storage) { clock.now })
        spy.enqueue(.response(Response(status: 200, headers: ["Cache-Control": "public, max-age=60"])))

        // When a GET is made
        _ = performNow(api, resource())

        // Then the response, sent with credentials the cache did not see, was not stored
        #expect(spy.urlRequests.first??.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
        #expect(storage.count == 0)
    }

    @Test func aStoredResponseWithoutCredentialsDoesNotAnswerACredentialedRequest() {
        // Given a response stored for a request without credentials
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "public, max-age=60"]))
        _ = fixture.get()

        // When the same URL is asked for with Authorization
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "personal"))
        let response = fixture.get(resource(headers: ["Authorization": "Bearer secret"]))

        // Then the server answered it
        #expect(response?.text == "personal" && response?.metrics.cache == .miss)
    }

    @Test func sMaxAgeIsIgnoredByThisPrivateCache() {
        // Given a 200 whose only lifetime is s-maxage, and a 302 with s-maxage alone
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "s-maxage=600", "ETag": "\"v1\""]))
        _ = fixture.get()
        fixture.next(fixture.answer(302, ["Cache-Control": "s-maxage=600", "Location": "/b"]))
        _ = fixture.get(resource("/redirect"))

        // When the 200 is asked for again
        fixture.next(fixture.answer(304, [:], body: ""))
        let again = fixture.get()

        // Then it was never fresh (revalidated), and the 302 had no freshness to be stored with
        #expect(again?.metrics.cache == .revalidated)
        #expect(fixture.storage.count == 1)
    }

    @Test func noCacheWithFieldNamesServesTheResponseWithoutThoseFields() throws {
        // Given a response that forbids reusing Set-Cookie and X-Session without revalidation
        let fixture = CacheFixture()
        let headers: HTTPHeaders = [
            "Cache-Control": "max-age=60, no-cache=\"Set-Cookie, x-session\"", "Set-Cookie": "id=1",
            "X-Session": "s1", "X-Kept": "k", "ETag": "\"v1\"",
        ]
        fixture.next(fixture.answer(200, headers))
        let first = try #require(fixture.get())

        // When it is asked for while fresh, then once stale and confirmed by a 304
        let hit = try #require(fixture.get())
        fixture.clock.advance(seconds: 61)
        fixture.next(fixture.answer(304, ["Set-Cookie": "id=2"], body: ""))
        let revalidated = try #require(fixture.get())

        // Then the miss had every field, the hit none of the named ones, the revalidated one the updated fields
        #expect(first.headers["Set-Cookie"] == "id=1" && first.headers["X-Session"] == "s1")
        #expect(hit.metrics.cache == .hit && hit.text == "stored body")
        #expect(hit.headers["Set-Cookie"] == nil && hit.headers["X-Session"] == nil && hit.headers["X-Kept"] == "k")
        #expect(revalidated.metrics.cache == .revalidated)
        #expect(revalidated.headers["Set-Cookie"] == "id=2" && revalidated.headers["X-Session"] == "s1")
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func aRequestsQualifiedNoCacheCountsAsNoCache() {
        // Given a fresh stored response with a validator
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When it is asked for with a request no-cache that names a field
        fixture.next(fixture.answer(304, [:], body: ""))
        let response = fixture.get(resource(headers: ["Cache-Control": "no-cache=\"X-A\""]))

        // Then it was revalidated rather than served
        #expect(response?.metrics.cache == .revalidated)
        #expect(fixture.sentHeader("If-None-Match", of: 1) == "\"v1\"")
    }

    // MARK: Invalidation

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete])
    func unsafeMethodsInvalidateTheURL(_ method: HTTPMethod) {
        // Given stored GET and HEAD responses for a URL
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))
        _ = fixture.get()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: ""))
        _ = fixture.get(resource(method: .head))

        // When a successful unsafe request is made to it
        fixture.next(fixture.answer(204, [:], body: ""))
        _ = fixture.get(resource(method: method))

        // Then nothing is stored for it any more
        #expect(fixture.storage.count == 0)
    }

    @Test func aFailedUnsafeRequestInvalidatesNothing() {
        // Given a stored response
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))
        _ = fixture.get()

        // When a POST to it gets a 500, and one fails to send
        fixture.next(fixture.answer(500, [:], body: ""))
        _ = fixture.get(resource(method: .post))
        fixture.next(.failure(.connectionLost))
        _ = performNow(fixture.cache, resource(method: .post))

        // Then it is still stored
        #expect(fixture.storage.count == 1)
    }

    @Test func locationAndContentLocationOnTheSameOriginAreInvalidated() {
        // Given stored responses for /items/2, /items/3 and another origin's /items/4
        let fixture = CacheFixture()
        for path in ["/items/2", "/items/3"] {
            fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))
            _ = fixture.get(resource(path))
        }
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))
        _ = fixture.get(BasicRequest(url: URL(string: "https://other.example.com/items/4")!))

        // When a POST is answered with a Location, a Content-Location and a Location elsewhere
        fixture.next(
            fixture.answer(
                201, ["Location": "/items/2", "Content-Location": "https://api.example.com/items/3"], body: ""))
        _ = fixture.get(resource("/items", method: .post))
        fixture.next(fixture.answer(201, ["Location": "https://other.example.com/items/4"], body: ""))
        _ = fixture.get(resource("/items", method: .post))

        // Then the two on the same origin were dropped, the other origin's was kept
        #expect(fixture.storage.count == 1)
        #expect(fixture.storage.response(for: "GET https://other.example.com/items/4") != nil)
    }

    // MARK: Per-request policy

    @Test func reloadAsksTheServerAndStoresTheAnswer() {
        // Given a fresh stored response
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When it is reloaded
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "reloaded"))
        let response = fixture.get(resource(policy: .reload))

        // Then the server was asked without conditions, and the new answer is stored
        #expect(response?.text == "reloaded" && response?.metrics.cache == .miss)
        #expect(fixture.sentHeader("If-None-Match", of: 1) == nil)
        #expect(fixture.get()?.text == "reloaded")
    }

    @Test func returnCacheElseLoadServesAStaleResponse() {
        // Given a response stale for an hour
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))
        _ = fixture.get()
        fixture.clock.advance(seconds: 3600)

        // When it is asked for with returnCacheElseLoad, and another URL too
        let stale = fixture.get(resource(policy: .returnCacheElseLoad))
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "loaded"))
        let loaded = fixture.get(resource("/items/2", policy: .returnCacheElseLoad))

        // Then the stale one was served, the missing one loaded
        #expect(stale?.metrics.cache == .hit && stale?.text == "stored body")
        #expect(loaded?.text == "loaded")
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func onlyIfCachedServesWhatIsStoredOrFailsWithCacheMiss() throws {
        // Given a stale stored response
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))
        _ = fixture.get()
        fixture.clock.advance(seconds: 3600)

        // When it and a URL never stored are asked for only if cached
        let stored = fixture.get(resource(policy: .onlyIfCached))
        let missing = performNow(fixture.cache, resource("/items/9", policy: .onlyIfCached))

        // Then the stored one was served, the other failed with cacheMiss; the server saw neither
        #expect(stored?.text == "stored body")
        let error = try #require(fetchError(missing))
        #expect(error.code == .cacheMiss)
        #expect(error.url?.path == "/items/9")
        #expect(fixture.spy.calls.count == 1)
    }

    @Test func onlyIfCachedNeverServesWhatMustBeRevalidated() {
        // Given stale responses that say must-revalidate and no-cache
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60, must-revalidate", "ETag": "\"a\""]))
        _ = fixture.get(resource("/a"))
        fixture.next(fixture.answer(200, ["Cache-Control": "no-cache", "ETag": "\"b\""]))
        _ = fixture.get(resource("/b"))
        fixture.clock.advance(seconds: 3600)

        // When they are asked for only if cached, or with the request header
        let first = performNow(fixture.cache, resource("/a", policy: .onlyIfCached))
        let second = performNow(fixture.cache, resource("/b", headers: ["Cache-Control": "only-if-cached"]))

        // Then both fail with cacheMiss rather than serve what must be revalidated
        #expect(fetchError(first)?.code == .cacheMiss)
        #expect(fetchError(second)?.code == .cacheMiss)
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func returnCacheElseLoadRevalidatesWhatMustBeRevalidated() {
        // Given a stale response that says must-revalidate
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60, must-revalidate", "ETag": "\"v1\""]))
        _ = fixture.get()
        fixture.clock.advance(seconds: 3600)

        // When it is asked for with returnCacheElseLoad
        fixture.next(fixture.answer(304, [:], body: ""))
        let response = fixture.get(resource(policy: .returnCacheElseLoad))

        // Then it was revalidated
        #expect(response?.metrics.cache == .revalidated)
    }

    // MARK: Request directives

    @Test(arguments: ["no-cache", "max-age=0", "min-fresh=120"])
    func requestDirectivesThatAskForRevalidation(_ cacheControl: String) {
        // Given a response fresh for 100 more seconds
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=110", "ETag": "\"v1\""]))
        _ = fixture.get()
        fixture.clock.advance(seconds: 10)

        // When the request carries the directive
        fixture.next(fixture.answer(304, [:], body: ""))
        let response = fixture.get(resource(headers: ["Cache-Control": cacheControl]))

        // Then the stored response was revalidated
        #expect(response?.metrics.cache == .revalidated, "\(cacheControl)")
    }

    @Test func pragmaNoCacheCountsWithoutCacheControl() {
        // Given a fresh stored response
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When a request says Pragma: no-cache
        fixture.next(fixture.answer(304, [:], body: ""))
        let response = fixture.get(resource(headers: ["Pragma": "no-cache"]))

        // Then it was revalidated
        #expect(response?.metrics.cache == .revalidated)
    }

    @Test func maxStaleAcceptsAStaleResponseWithinItsLimit() {
        // Given a response 30 s stale
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "ETag": "\"v1\""]))
        _ = fixture.get()
        fixture.clock.advance(seconds: 90)

        // When requests allow 60 s, any, and 10 s of staleness
        let within = fixture.get(resource(headers: ["Cache-Control": "max-stale=60"]))
        let any = fixture.get(resource(headers: ["Cache-Control": "max-stale"]))
        fixture.next(fixture.answer(304, [:], body: ""))
        let beyond = fixture.get(resource(headers: ["Cache-Control": "max-stale=10"]))

        // Then the first two were served stale, the third revalidated
        #expect(within?.metrics.cache == .hit && any?.metrics.cache == .hit)
        #expect(beyond?.metrics.cache == .revalidated)
    }

    @Test func aRequestWithNoStoreIsNotStored() {
        // Given a request that says no-store
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))

        // When it is answered with a cacheable response
        _ = fixture.get(resource(headers: ["Cache-Control": "no-store"]))

        // Then nothing was stored
        #expect(fixture.storage.count == 0)
    }

    @Test func aRequestWithNoStoreIsNotAnsweredFromStorageRFC9111Section5_2_1_5() {
        // Given a fresh stored response
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60", "ETag": "\"v1\""]))
        _ = fixture.get()

        // When a request that says no-store asks for it
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: "from the server"))
        let response = fixture.get(resource(headers: ["Cache-Control": "no-store"]))

        // Then the server answered, asked without conditions
        #expect(response?.text == "from the server" && response?.metrics.cache == .miss)
        #expect(fixture.sentHeader("If-None-Match", of: 1) == nil)
    }
}
