import Foundation
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// A cache above a layer that holds the `BaseURL` stores, answers and invalidates on the
/// absolute URL calls are sent to, though their URL is still relative where it sees them.
@Suite struct CachingAboveBaseURLTests {
    /// A spy under a `BaseURL` layer, under a cache with its own storage.
    private func stack(baseURL: Bool = true) -> (SpyPerformer, MemoryCacheStorage, LayeredPerformer) {
        let spy = SpyPerformer()
        let storage = MemoryCacheStorage()
        let below: any RequestPerforming = baseURL ? spy.enhanced(by: [BaseURL("https://api.example.com/v1")]) : spy
        return (spy, storage, below.caching(CacheConfiguration(storage: storage)))
    }

    private func request(_ path: String, method: HTTPMethod = .get) -> BasicRequest {
        BasicRequest(url: URL(string: path)!, method: method)
    }

    private let cacheable = SpyPerformer.Answer.status(
        200, body: "stored", headers: ["Cache-Control": "max-age=60"])

    @Test func aMissGoesBelowWithTheAbsoluteURLAndSucceeds() throws {
        // Given a cache above a BaseURL layer, and a server answer it may store
        let (spy, storage, cache) = stack()
        spy.enqueue(cacheable)

        // When a relative URL is asked for
        let response = try #require(try performNow(cache, request("users/7"))?.get())

        // Then it reached the spy absolute, succeeded as a miss, and was stored
        #expect(spy.calls.map { $0.urlRequest?.url?.absoluteString } == ["https://api.example.com/v1/users/7"])
        #expect(response.status == 200 && response.metrics.cache == .miss)
        #expect(storage.count == 1)
    }

    @Test func aSecondCallIsAnsweredFromTheCache() throws {
        // Given a relative URL fetched once above a BaseURL layer
        let (spy, _, cache) = stack()
        spy.enqueue(cacheable)
        _ = try performNow(cache, request("users/7"))?.get()

        // When it is asked for again
        let again = try #require(try performNow(cache, request("users/7"))?.get())

        // Then the cache answered it: the spy saw one call
        #expect(again.metrics.cache == .hit)
        #expect(String(decoding: again.body, as: UTF8.self) == "stored")
        #expect(spy.calls.count == 1)
    }

    @Test func aPostToTheSameRelativeURLInvalidates() throws {
        // Given a relative URL stored above a BaseURL layer
        let (spy, storage, cache) = stack()
        spy.enqueue(cacheable)
        _ = try performNow(cache, request("users/7"))?.get()
        #expect(storage.count == 1)

        // When a POST to the same relative URL succeeds
        spy.enqueue(.status(204))
        let posted = try #require(try performNow(cache, request("users/7", method: .post))?.get())

        // Then it went out absolute, and the stored response is gone
        #expect(posted.status == 204)
        #expect(spy.calls.last?.urlRequest?.url?.absoluteString == "https://api.example.com/v1/users/7")
        #expect(storage.count == 0)
    }

    @Test func aRelativeURLNoBaseURLResolvesFailsNamingIt() throws {
        // Given a cache with no BaseURL below it
        let (_, storage, cache) = stack(baseURL: false)

        // When a relative URL is asked for
        let result = try #require(performNow(cache, request("users/7")))

        // Then the call failed as an invalid request naming the relative URL, and nothing was stored
        #expect(throws: FetchError.self) { try result.get() }
        if case .failure(let error as FetchError) = result {
            #expect(error.code == .invalidRequest)
            #expect(error.url?.relativeString == "users/7")
        }
        #expect(storage.count == 0)
    }
}
