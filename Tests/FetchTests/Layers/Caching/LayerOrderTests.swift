import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// The orders of the cache, coalescing and retry layers that matter, as the README recommends:
/// coalescing above the cache, the cache above retry.
@Suite struct LayerOrderTests {
    private let fresh = Response(status: 200, headers: ["Cache-Control": "max-age=60"], body: Data("body".utf8))

    @Test func theCacheAboveRetryStoresOnlyTheFinalAnswerAndSkipsRetryOnAHit() throws {
        // Given the cache above retry, over two 503s then a cacheable 200
        let spy = SpyPerformer([.status(503), .status(503), .response(fresh)])
        let storage = MemoryCacheStorage()
        let api = spy.retrying(.exponential(maxAttempts: 3), scheduler: ImmediateScheduler())
            .caching(CacheConfiguration(storage: storage))

        // When the resource is asked for twice
        let first = try #require(performNow(api, resource()).flatMap { try? $0.get() })
        let second = try #require(performNow(api, resource()).flatMap { try? $0.get() })

        // Then the 503s were retried below the cache and never stored; the 200 was, and
        // answered the second call without any attempt
        #expect(first.status == 200 && first.metrics.retries == 2 && first.metrics.cache == .miss)
        #expect(second.metrics.cache == .hit && second.metrics.retries == 0)
        #expect(spy.calls.count == 3)
        #expect(storage.count == 1)
    }

    @Test func retryAboveTheCacheWouldStoreNothingDifferentButRetriesCacheMissesNever() throws {
        // Given retry above the cache: a call only if cached that misses
        let spy = SpyPerformer()
        let api = spy.caching().retrying(.exponential(maxAttempts: 3), scheduler: ImmediateScheduler())

        // When it is made
        let result = performNow(api, resource(policy: .onlyIfCached))

        // Then it fails at once with cacheMiss: nothing reached the server, nothing was retried
        #expect(fetchError(result)?.code == .cacheMiss)
        #expect(spy.calls.isEmpty)
    }

    @Test func coalescingAboveTheCacheSendsOneRequestAndStoresItOnce() throws {
        // Given coalescing above the cache, over a server that holds the request
        let spy = SpyPerformer(match: { _ in .hold })
        let storage = MemoryCacheStorage()
        let api = spy.caching(CacheConfiguration(storage: storage)).coalescing()
        let results = Recorder<Result<Response, any Error>>()

        // When three identical calls are made while it is in flight, then it is answered
        for _ in 0..<3 { api.perform(resource()) { results.record($0) } }
        #expect(spy.calls.count == 1)
        try #require(spy.pending.first).respond(fresh)

        // Then all three got it, shared, and a fourth call is a hit with no request
        #expect(results.all.compactMap { try? $0.get() }.allSatisfy { $0.text == "body" && $0.metrics.shared })
        #expect(results.count == 3)
        #expect(performNow(api, resource()).flatMap { try? $0.get() }?.metrics.cache == .hit)
        #expect(spy.calls.count == 1 && storage.count == 1)
    }

    @Test func coalescingAboveTheCacheSharesOneRevalidation() throws {
        // Given a stale entry, coalescing above the cache, and a server that holds requests
        let clock = TestClock()
        let spy = SpyPerformer(
            [
                .response(
                    Response(
                        status: 200, headers: ["Cache-Control": "max-age=10", "ETag": "\"v1\""],
                        body: Data("body".utf8)))
            ], match: { _ in .hold })
        let api = spy.caching(CacheConfiguration { clock.now }).coalescing()
        _ = performNow(api, resource())
        clock.advance(seconds: 60)
        let results = Recorder<Result<Response, any Error>>()

        // When two calls come while the revalidation is in flight, and it gets a 304
        api.perform(resource()) { results.record($0) }
        api.perform(resource()) { results.record($0) }
        #expect(spy.calls.count == 2)
        try #require(spy.pending.first).respond(Response(status: 304))

        // Then both got the stored body, revalidated once
        let responses = results.all.compactMap { try? $0.get() }
        #expect(responses.count == 2)
        #expect(responses.allSatisfy { $0.text == "body" && $0.metrics.cache == .revalidated && $0.metrics.shared })
    }
}
