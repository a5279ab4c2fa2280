import Foundation
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// Coalescing above a layer that holds the `BaseURL` keys calls on the absolute URL they are
/// sent to, though their URL is still relative where the coalescing layer sees it.
@Suite struct CoalescingAboveBaseURLTests {
    /// A spy that holds every call open, under a `BaseURL` layer, under coalescing.
    private func held() -> (SpyPerformer, CoalescingPerformer) {
        let spy = SpyPerformer(match: { _ in .hold })
        return (spy, spy.enhanced(by: [BaseURL("https://api.example.com/v1")]).coalescing())
    }

    private func request(_ path: String) -> BasicRequest {
        BasicRequest(url: URL(string: path)!)
    }

    @Test func identicalRelativeCallsShareOneRequest() throws {
        // Given two identical GETs of a relative URL made while the first is in flight
        let (spy, performer) = held()
        let first = Recorder<Result<Response, any Error>>()
        let second = Recorder<Result<Response, any Error>>()
        performer.perform(request("users/7")) { first.record($0) }
        performer.perform(request("users/7")) { second.record($0) }

        // When the one request the spy got is answered
        #expect(spy.calls.count == 1)
        #expect(spy.calls.first?.urlRequest?.url?.absoluteString == "https://api.example.com/v1/users/7")
        try #require(spy.pending.first).respond(.status(200, body: "shared"))

        // Then both callers got the response, marked shared
        let a = try #require(try first.single?.get())
        let b = try #require(try second.single?.get())
        #expect(a.status == 200 && b.status == 200)
        #expect(String(decoding: b.body, as: UTF8.self) == "shared")
        #expect(a.metrics.shared && b.metrics.shared)
        #expect(performer.inFlightCount == 0)
    }

    @Test func differentRelativePathsAreNotShared() {
        // Given a GET of one relative URL in flight
        let (spy, performer) = held()
        performer.perform(request("users/7")) { _ in }

        // When a GET of another relative URL is made
        performer.perform(request("users/8")) { _ in }

        // Then each went out on its own, to its own absolute URL
        #expect(
            spy.calls.map { $0.urlRequest?.url?.absoluteString } == [
                "https://api.example.com/v1/users/7", "https://api.example.com/v1/users/8",
            ])
        #expect(performer.inFlightCount == 2)
    }

    @Test func aRelativeURLNoBaseURLResolvesIsNotCoalescedAndFails() throws {
        // Given coalescing with no BaseURL below it
        let spy = SpyPerformer(match: { _ in .hold })
        let performer = spy.coalescing()
        let results = Recorder<Result<Response, any Error>>()

        // When two identical GETs of a relative URL are made
        performer.perform(request("users/7")) { results.record($0) }
        performer.perform(request("users/7")) { results.record($0) }

        // Then each went below on its own, and each failed naming its relative URL
        #expect(spy.calls.count == 2)
        #expect(performer.inFlightCount == 0)
        #expect(results.all.count == 2)
        for result in results.all {
            #expect(throws: FetchError.self) { try result.get() }
            if case .failure(let error as FetchError) = result {
                #expect(error.code == .invalidRequest)
                #expect(error.url?.relativeString == "users/7")
            }
        }
    }
}
