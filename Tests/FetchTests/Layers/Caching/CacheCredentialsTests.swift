import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// No stored response crosses credentials: each set of credentials has a private cache of its
/// own, whichever layer adds them and however they change.
@Suite struct CacheCredentialsTests {
    /// The usual header set of per-user API data.
    private let personal: HTTPHeaders = ["Cache-Control": "private, must-revalidate, max-age=60", "ETag": "\"a\""]

    @Test(arguments: ["Authorization", "Cookie", "Proxy-Authorization"])
    func aResponseIsServedOnlyToTheCredentialsThatGotIt(_ field: String) throws {
        // Given user A's personal response, stored
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, personal, body: "A's"))
        _ = fixture.get(resource(headers: [field: "user-a"]))

        // When user B, a call without credentials, then user A ask for the same URL
        fixture.next(fixture.answer(200, personal, body: "B's"))
        let userB = try #require(fixture.get(resource(headers: [field: "user-b"])))
        fixture.next(fixture.answer(200, personal, body: "nobody's"))
        let anonymous = try #require(fixture.get(resource()))
        let userA = try #require(fixture.get(resource(headers: [field: "user-a"])))

        // Then B and the anonymous call went to the server and got their own; A's came from the cache
        #expect(userB.text == "B's" && userB.metrics.cache == .miss)
        #expect(anonymous.text == "nobody's" && anonymous.metrics.cache == .miss)
        #expect(userA.text == "A's" && userA.metrics.cache == .hit)
        #expect(fixture.spy.calls.count == 3)
        #expect(fixture.storage.count == 3)
    }

    @Test func aCallWithoutCredentialsIsNeverServedACredentialedEntry() {
        // Given a response stored for a call with credentials, public and fresh for a minute
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, ["Cache-Control": "public, max-age=60"], body: "A's"))
        _ = fixture.get(resource(headers: ["Authorization": "Bearer a"]))

        // When the URL is asked for without credentials, only from the cache
        let result = performNow(fixture.cache, resource(policy: .onlyIfCached))

        // Then nothing may answer it
        #expect(fetchError(result)?.code == .cacheMiss)
        #expect(fixture.spy.calls.count == 1)
    }

    @Test func bearerTokenAboveTheCacheKeepsEachTokensEntries() throws {
        // Given BearerToken above the cache, and user A's response stored
        let fixture = CacheFixture()
        let store = TokenStore("token-a")
        let api = fixture.cache.enhanced(by: BearerToken(store))
        fixture.next(fixture.answer(200, personal, body: "A's"))
        _ = performNow(api, resource())

        // When the token changes to B's and the URL is asked for, then back to A's
        store.token = "token-b"
        fixture.next(fixture.answer(200, personal, body: "B's"))
        let userB = try #require(performNow(api, resource())).get()
        store.token = "token-a"
        let userA = try #require(performNow(api, resource())).get()

        // Then B's call reached the server with B's token; A's came from A's entry
        #expect(userB.text == "B's" && userB.metrics.cache == .miss)
        #expect(fixture.sentHeader("Authorization", of: 1) == "Bearer token-b")
        #expect(userA.text == "A's" && userA.metrics.cache == .hit)
        #expect(fixture.spy.calls.count == 2)
    }

    @Test func bearerTokenBelowTheCacheStoresNothing() throws {
        // Given BearerToken below the cache, where the cache cannot see the token
        let spy = SpyPerformer()
        let storage = MemoryCacheStorage()
        let store = TokenStore("token-a")
        let api = spy.enhanced(by: BearerToken(store)).caching(CacheConfiguration(storage: storage))
        spy.enqueue(.response(Response(status: 200, headers: personal, body: Data("A's".utf8))))
        _ = performNow(api, resource())

        // When the token changes and the URL is asked for again
        store.token = "token-b"
        spy.enqueue(.response(Response(status: 200, headers: personal, body: Data("B's".utf8))))
        let userB = try #require(performNow(api, resource())).get()

        // Then nothing was stored, and B's call reached the server with B's token
        #expect(storage.count == 0)
        #expect(userB.text == "B's" && userB.metrics.cache == .miss)
        #expect(
            spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Authorization") } == [
                "Bearer token-a", "Bearer token-b",
            ])
    }

    @Test func aTokenRefreshedAfterA401IsNotServedTheOldTokensEntry() throws {
        // Given the README's order (refresh, then BearerToken, then the cache) and /me stored
        // for the old token
        let fixture = CacheFixture()
        let store = TokenStore("old")
        let api = fixture.cache.enhanced(by: BearerToken(store))
            .refreshing(
                with: RefreshTokenHandler { done in
                    store.token = "new"
                    done(.success(()))
                })
        fixture.next(fixture.answer(200, personal, body: "old token's"))
        _ = performNow(api, resource("/me"))

        // When another call gets a 401, the token is refreshed and the call resent, then /me is asked for
        fixture.next(fixture.answer(401, [:], body: ""))
        fixture.next(fixture.answer(200, [:], body: "other"))
        let other = try #require(performNow(api, resource("/other"))).get()
        fixture.next(fixture.answer(200, personal, body: "new token's"))
        let me = try #require(performNow(api, resource("/me"))).get()

        // Then /me went to the server with the new token, and was not served the old token's entry
        #expect(other.text == "other" && fixture.sentHeader("Authorization", of: 2) == "Bearer new")
        #expect(me.text == "new token's" && me.metrics.cache == .miss)
        #expect(fixture.sentHeader("Authorization", of: 3) == "Bearer new")
        #expect(fixture.spy.calls.count == 4)
    }

    @Test func sensitiveHeadersOfTheConfigurationAndTheRequestAreCredentials() throws {
        // Given a cache that counts X-Api-Key as a credential, and responses stored for one
        // key, for one tenant marked sensitive by the request, and for one X-Trace value
        let fixture = CacheFixture(sensitiveHeaders: ["X-API-KEY"])
        var tenant = RequestOptions()
        tenant.sensitiveHeaders = ["X-Tenant"]
        func call(_ path: String, _ headers: HTTPHeaders, options: RequestOptions = RequestOptions()) -> Response? {
            fixture.get(
                BasicRequest(
                    url: URL(string: "https://api.example.com\(path)")!, headers: headers, options: options))
        }
        for (path, headers, options) in [
            ("/key", ["X-Api-Key": "one"], RequestOptions()), ("/tenant", ["X-Tenant": "one"], tenant),
            ("/trace", ["X-Trace": "one"], RequestOptions()),
        ] as [(String, HTTPHeaders, RequestOptions)] {
            fixture.next(fixture.answer(200, personal, body: "one"))
            _ = call(path, headers, options: options)
        }

        // When each is asked for with another value
        fixture.next(fixture.answer(200, personal, body: "two"))
        let key = try #require(call("/key", ["x-api-key": "two"]))
        fixture.next(fixture.answer(200, personal, body: "two"))
        let tenantTwo = try #require(call("/tenant", ["X-Tenant": "two"], options: tenant))
        let trace = try #require(call("/trace", ["X-Trace": "two"]))

        // Then the sensitive ones went to the server; X-Trace, not a credential, was a hit
        #expect(key.text == "two" && key.metrics.cache == .miss)
        #expect(tenantTwo.text == "two" && tenantTwo.metrics.cache == .miss)
        #expect(trace.text == "one" && trace.metrics.cache == .hit)
        #expect(fixture.spy.calls.count == 5)
    }

    @Test func sensitiveHeadersSetAfterTheConfigurationIsMadeCount() throws {
        // Given a configuration whose sensitive headers are set once it is made, and a
        // response stored for one API key
        let spy = SpyPerformer()
        var configuration = CacheConfiguration(storage: MemoryCacheStorage())
        configuration.sensitiveHeaders = ["X-Api-Key"]
        let api = spy.caching(configuration)
        spy.enqueue(.response(Response(status: 200, headers: personal, body: Data("one".utf8))))
        _ = performNow(api, resource(headers: ["X-Api-Key": "one"]))

        // When another key asks for the same URL
        spy.enqueue(.response(Response(status: 200, headers: personal, body: Data("two".utf8))))
        let other = try #require(performNow(api, resource(headers: ["X-Api-Key": "two"]))).get()

        // Then it went to the server
        #expect(other.text == "two" && other.metrics.cache == .miss)
        #expect(spy.calls.count == 2)
    }

    @Test func theSameCredentialsShareAnEntryWhateverTheCaseOfTheirNames() throws {
        // Given a response stored for a call with a token and a cookie
        let fixture = CacheFixture()
        fixture.next(fixture.answer(200, personal, body: "A's"))
        _ = fixture.get(resource(headers: ["Authorization": "Bearer a", "Cookie": "id=1"]))

        // When the same credentials come with other casing, and with one value changed
        let same = try #require(fixture.get(resource(headers: ["cookie": "id=1", "AUTHORIZATION": "Bearer a"])))
        fixture.next(fixture.answer(200, personal, body: "other"))
        let other = try #require(fixture.get(resource(headers: ["Authorization": "Bearer a", "Cookie": "id=2"])))

        // Then the first was a hit, the second went to the server
        #expect(same.metrics.cache == .hit && same.text == "A's")
        #expect(other.metrics.cache == .miss && other.text == "other")
    }

    @Test func storageKeysNameThePartitionWithoutTheCredentials() throws {
        // Given a storage that records keys, and responses stored with and without a token
        let storage = DictionaryStorage()
        let fresh = Response(status: 200, headers: ["Cache-Control": "max-age=60"])
        let spy = SpyPerformer(match: { _ in .response(fresh) })
        let api = spy.caching(CacheConfiguration(storage: storage))
        _ = performNow(api, resource())
        _ = performNow(api, resource(headers: ["Authorization": "Bearer secret-token"]))

        // Then the anonymous key is the method and URL, the other adds a UUID and no credential
        let keys = storage.keys
        #expect(keys.count == 2)
        #expect(keys.contains("GET https://api.example.com/items/1"))
        let credentialed = try #require(keys.first { $0 != "GET https://api.example.com/items/1" })
        let identifier = credentialed.dropFirst("GET https://api.example.com/items/1 ".count)
        #expect(credentialed.hasPrefix("GET https://api.example.com/items/1 "))
        #expect(UUID(uuidString: String(identifier)) != nil)
        #expect(!credentialed.contains("secret"))
    }

    @Test func anotherCacheOverTheSameStorageDoesNotFindTheEntriesOfCredentials() throws {
        // Given a response stored for a token through one cache
        let storage = DictionaryStorage()
        let fresh = Response(status: 200, headers: ["Cache-Control": "max-age=60"])
        let spy = SpyPerformer(match: { _ in .response(fresh) })
        _ = performNow(spy.caching(CacheConfiguration(storage: storage)), resource(headers: ["Authorization": "a"]))

        // When another cache, as another process would, reads the same storage with that token
        let other = try #require(
            performNow(spy.caching(CacheConfiguration(storage: storage)), resource(headers: ["Authorization": "a"])))

        // Then it finds nothing, and stores its own entry under another key
        #expect(try other.get().metrics.cache == .miss)
        #expect(storage.keys.count == 2)
    }

    @Test func theCredentialsMetLongestAgoLoseTheirEntriesWhenTooManySetsCome() throws {
        // Given user A's response stored, then 1,023 other users' (the identifiers kept at once)
        let storage = DictionaryStorage()
        let fresh = Response(status: 200, headers: ["Cache-Control": "max-age=60"])
        let spy = SpyPerformer(match: { _ in .response(fresh) })
        let api = spy.caching(CacheConfiguration(storage: storage))
        _ = performNow(api, resource(headers: ["Authorization": "user-a"]))
        for user in 1...1_023 { _ = performNow(api, resource(headers: ["Authorization": "user-\(user)"])) }
        let keptA = try #require(performNow(api, resource(headers: ["Authorization": "user-a"]))).get()

        // When one more user comes, then user A again
        _ = performNow(api, resource(headers: ["Authorization": "user-1024"]))
        let missedA = try #require(performNow(api, resource(headers: ["Authorization": "user-a"]))).get()

        // Then A was served from the cache while its identifier was kept, and afterwards A's
        // entry is only missed: the call went to the server and was stored under a new key
        #expect(keptA.metrics.cache == .hit)
        #expect(missedA.metrics.cache == .miss)
        #expect(spy.calls.count == 1_026)
        #expect(storage.keys.count == 1_026)
    }

    @Test func anUnsafeCallInvalidatesItsOwnAndTheAnonymousEntriesOnly() throws {
        // Given the same URL stored for user A, user B and a call without credentials
        let fixture = CacheFixture()
        for headers in [["Authorization": "a"], ["Authorization": "b"], [:]] as [HTTPHeaders] {
            fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"]))
            _ = fixture.get(resource(headers: headers))
        }

        // When A's POST to it succeeds
        fixture.next(fixture.answer(204, [:], body: ""))
        _ = fixture.get(resource(method: .post, headers: ["Authorization": "a"]))

        // Then A's and the anonymous entries are gone; B's, another user's cache, stays
        #expect(fixture.storage.count == 1)
        #expect(fixture.get(resource(headers: ["Authorization": "b"], policy: .onlyIfCached))?.metrics.cache == .hit)
    }

    @Test func credentialsAddedBelowTheCacheOnARevalidationDropTheEntry() throws {
        // Given a stale entry stored without credentials, and a layer below that adds a cookie
        // to conditional requests only
        let spy = SpyPerformer()
        let clock = TestClock()
        let storage = MemoryCacheStorage()
        let api = spy.enhanced(by: CookieOnConditionalRequests())
            .caching(CacheConfiguration(storage: storage) { clock.now })
        spy.enqueue(.response(Response(status: 200, headers: ["Cache-Control": "max-age=60", "ETag": "\"v1\""])))
        _ = performNow(api, resource())
        #expect(storage.count == 1)
        clock.advance(seconds: 120)

        // When it is revalidated with the cookie and the server says 304
        spy.enqueue(.response(Response(status: 304)))
        let response = try #require(performNow(api, resource())).get()

        // Then the call got the stored body, but the entry, confirmed for credentials the
        // cache cannot see, is gone
        #expect(response.metrics.cache == .revalidated)
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Cookie") == "id=1")
        #expect(storage.count == 0)
    }
}

/// Adds a cookie to a request that carries `If-None-Match`.
private struct CookieOnConditionalRequests: Enhancer {
    func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        if urlRequest.value(forHTTPHeaderField: "If-None-Match") != nil {
            urlRequest.setValue("id=1", forHTTPHeaderField: "Cookie")
        }
    }
}
