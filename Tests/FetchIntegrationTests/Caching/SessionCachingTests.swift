import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchCaching

/// A clock a test moves forward, so a cache over a real session sees time pass.
final class ShiftedClock: @unchecked Sendable {
    // `lock` guards `shift`.
    private let lock = NSLock()
    private var shift: TimeInterval = 0

    var now: Date { Date() + lock.withLock { shift } }

    func advance(seconds: TimeInterval) { lock.withLock { shift += seconds } }
}

/// `.caching()` over a `Session`, against httpbin's caching endpoints and the fault server,
/// which logs every request that reaches it.
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct SessionCachingTests {
    private func api(_ clock: ShiftedClock = ShiftedClock()) -> LayeredPerformer {
        Session().caching(CacheConfiguration { clock.now })
    }

    private func get(_ api: some RequestPerforming, _ url: URL, headers: HTTPHeaders = [:]) async throws -> Response {
        try await api.response(for: BasicRequest(url: url, headers: headers))
    }

    @Test func httpbinCacheIsRevalidatedWithItsValidators() async throws {
        // Given httpbin's /cache, which sends Last-Modified and ETag but no freshness
        let servers = try LoopbackServers.require()
        let api = api()
        let first = try await get(api, servers.httpbin.url("/cache"))

        // When it is asked for again
        let second = try await get(api, servers.httpbin.url("/cache"))

        // Then the server confirmed it with a 304 and the stored body was delivered
        #expect(first.metrics.cache == .miss && first.status == 200)
        #expect(second.metrics.cache == .revalidated && second.status == 200)
        #expect(second.body == first.body && !second.body.isEmpty)
        #expect(second.urlRequest.value(forHTTPHeaderField: "If-None-Match") != nil)
        #expect(second.metrics.total != nil)
    }

    @Test func httpbinCacheWithMaxAgeIsServedUntilItExpires() async throws {
        // Given httpbin's /cache/60 (public, max-age=60), fetched once
        let servers = try LoopbackServers.require()
        let clock = ShiftedClock()
        let api = api(clock)
        let url = servers.httpbin.url("/cache/60")
        let first = try await get(api, url)

        // When it is asked for again at once, and after 61 s
        let hit = try await get(api, url)
        clock.advance(seconds: 61)
        let expired = try await get(api, url)

        // Then the second came from the cache, the third from the server (httpbin gives no validator)
        #expect(first.metrics.cache == .miss)
        #expect(hit.metrics.cache == .hit && hit.body == first.body)
        #expect(expired.metrics.cache == .miss)
    }

    @Test func httpbinEtagAnswers304ToTheCachesCondition() async throws {
        // Given httpbin's /etag/{etag}, fetched once
        let servers = try LoopbackServers.require()
        let api = api()
        let url = servers.httpbin.url("/etag/abc123")
        let first = try await get(api, url)

        // When it is asked for again
        let second = try await get(api, url)

        // Then it was revalidated with the ETag
        #expect(first.headers["ETag"] == "\"abc123\"" || first.headers["ETag"] == "abc123")
        #expect(second.metrics.cache == .revalidated)
        #expect(second.body == first.body)
    }

    @Test func httpbinResponseHeadersDriveVaryAndNoStore() async throws {
        // Given responses that vary on Accept-Language, and one that says no-store
        let servers = try LoopbackServers.require()
        let api = api()
        let varying = servers.httpbin.url("/response-headers?Cache-Control=max-age%3D60&Vary=Accept-Language")
        let unstored = servers.httpbin.url("/response-headers?Cache-Control=no-store")

        // When each is asked for twice (the varying one with two languages, then the first again)
        _ = try await get(api, varying, headers: ["Accept-Language": "en"])
        let english = try await get(api, varying, headers: ["Accept-Language": "en"])
        let french = try await get(api, varying, headers: ["Accept-Language": "fr"])
        _ = try await get(api, unstored)
        let again = try await get(api, unstored)

        // Then only the same language was a hit, and no-store was never stored
        #expect(english.metrics.cache == .hit)
        #expect(french.metrics.cache == .miss)
        #expect(again.metrics.cache == .miss)
    }

    @Test(arguments: [
        "Cache-Control=max-age%3Dabc", "Expires=0", "Cache-Control=max-age%3D60&Vary=%2A",
        "Cache-Control=max-age%3D99999999999999999999&Date=garbage",
    ])
    func httpbinBadHeadersNeverBreakTheCall(_ query: String) async throws {
        // Given a response with malformed or hostile cache headers
        let servers = try LoopbackServers.require()
        let api = api()
        let url = servers.httpbin.url("/response-headers?\(query)")

        // When it is asked for twice
        let first = try await get(api, url)
        let second = try await get(api, url)

        // Then both calls succeed; only the huge max-age is served from the cache
        #expect(first.status == 200 && second.status == 200)
        #expect(second.metrics.cache == (query.contains("9999") ? .hit : .miss), "\(query)")
    }

    @Test func theFaultServerSeesOneRequestThenOneConditionalOne() async throws {
        // Given the fault server's /resource (ETag "v1", max-age=3600), fetched once
        let servers = try LoopbackServers.require()
        let clock = ShiftedClock()
        let api = api(clock)
        let tag = uniqueTag()
        let url = servers.faults.url("/resource?tag=\(tag)")
        _ = try await get(api, url)

        // When it is asked for again at once, then after an hour
        let hit = try await get(api, url)
        clock.advance(seconds: 3601)
        let revalidated = try await get(api, url)

        // Then the server saw the first GET and one conditional GET, nothing for the hit
        let seen = try await servers.faults.seen(tag: tag)
        #expect(hit.metrics.cache == .hit)
        #expect(
            revalidated.metrics.cache == .revalidated
                && String(decoding: revalidated.body, as: UTF8.self) == "the resource body")
        #expect(seen.count == 2)
        #expect(seen.first?.header("if-none-match") == nil)
        #expect(seen.last?.header("if-none-match") == "\"v1\"")
    }

    @Test func aPostInvalidatesWhatTheServerWouldOtherwiseNotSee() async throws {
        // Given a stored response of the fault server
        let servers = try LoopbackServers.require()
        let api = api()
        let tag = uniqueTag()
        let url = servers.faults.url("/resource?tag=\(tag)")
        _ = try await get(api, url)

        // When a POST to the same URL succeeds, then the GET is made again
        _ = try await api.response(for: BasicRequest(url: url, method: .post, body: .text("change")))
        let after = try await get(api, url)

        // Then the GET reached the server again
        #expect(after.metrics.cache == .miss)
        #expect(try await servers.faults.seen(tag: tag).map(\.method) == ["GET", "POST", "GET"])
    }

    @Test func eachUserIsServedOnlyTheirOwnResponse() async throws {
        // Given BearerToken above the cache (the README's order) over a Session, and the fault
        // server's per-user resource (private, must-revalidate, max-age=60)
        let servers = try LoopbackServers.require()
        let store = TokenStore("user-a")
        let cache = api()
        let authed = cache.enhanced(by: BearerToken(store))
        let tag = uniqueTag()
        let url = servers.faults.url("/personal?tag=\(tag)")

        // When user A asks twice, then user B, a call without credentials, one with a cookie, and A again
        let first = try await get(authed, url)
        let repeated = try await get(authed, url)
        store.token = "user-b"
        let userB = try await get(authed, url)
        let anonymous = try await get(cache, url)
        let cookie = try await get(cache, url, headers: ["Cookie": "id=c"])
        store.token = "user-a"
        let again = try await get(authed, url)

        // Then each got their own, and the server saw each of them once: A's repeats were hits
        let text = { (response: Response) in String(decoding: response.body, as: UTF8.self) }
        #expect(text(first) == "for Bearer user-a" && first.metrics.cache == .miss)
        #expect(text(repeated) == "for Bearer user-a" && repeated.metrics.cache == .hit)
        #expect(text(userB) == "for Bearer user-b" && userB.metrics.cache == .miss)
        #expect(text(anonymous) == "for nobody" && anonymous.metrics.cache == .miss)
        #expect(text(cookie) == "for id=c" && cookie.metrics.cache == .miss)
        #expect(text(again) == "for Bearer user-a" && again.metrics.cache == .hit)
        let seen = try await servers.faults.seen(tag: tag)
        #expect(
            seen.map { $0.header("authorization") ?? $0.header("cookie") ?? "nobody" } == [
                "Bearer user-a", "Bearer user-b", "nobody", "id=c",
            ])
    }

    @Test func credentialsAddedBelowTheCacheAreNeverStored() async throws {
        // Given the fault server's /resource (max-age=3600), asked for with a token added below the cache
        let servers = try LoopbackServers.require()
        let api = Session().enhanced(by: BearerToken(TokenStore("secret"))).caching()
        let tag = uniqueTag()
        let url = servers.faults.url("/resource?tag=\(tag)")

        // When it is asked for twice
        _ = try await get(api, url)
        let second = try await get(api, url)

        // Then both reached the server, with the token
        #expect(second.metrics.cache == .miss)
        let seen = try await servers.faults.seen(tag: tag)
        #expect(seen.count == 2 && seen.allSatisfy { $0.header("authorization") == "Bearer secret" })
    }

    @Test func onlyIfCachedNeverReachesTheServer() async throws {
        // Given nothing stored
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()
        let request = BasicRequest(
            url: servers.faults.url("/resource?tag=\(tag)"),
            options: RequestOptions().with(\.cachePolicy, .onlyIfCached))

        // When a call only if cached is made
        await #expect(throws: FetchError.self) { try await api().response(for: request) }

        // Then the server saw nothing
        #expect(try await servers.faults.seen(tag: tag).isEmpty)
    }
}
