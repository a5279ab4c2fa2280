import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport
@testable import FetchCaching

/// A request is built once per attempt: every enhancer runs once, and the coalescing key,
/// the cache key and the performer at the bottom use that one `URLRequest`. Retry and
/// refresh build again, for their new attempt.
struct BuiltOncePerAttemptTests {
    struct GetArticle: Request {
        var url: URL { URL(string: "articles/7")! }
    }

    /// Counts the tokens it hands out and hands out a new one each time: "token-1", "token-2"...
    final class CountingTokens: @unchecked Sendable {
        // `lock` guards `count`.
        private let lock = NSLock()
        private var count = 0

        var runs: Int { lock.withLock { count } }

        func next() -> String {
            lock.withLock {
                count += 1
                return "token-\(count)"
            }
        }
    }

    /// The README's recommended order over `spy`, with a `BearerToken` whose closure counts:
    /// it hands out a new token each time, or with `sameToken` always "same".
    private func recommended(
        over spy: SpyPerformer, tokens: CountingTokens, sameToken: Bool = false
    ) -> any RequestPerforming {
        spy.retrying(.exponential(maxAttempts: 3), scheduler: ImmediateScheduler())
            .caching()
            .coalescing()
            .enhanced(
                by: BaseURL("https://api.example.com"),
                BearerToken {
                    let token = tokens.next()
                    return sameToken ? "same" : token
                }
            )
            .refreshing(with: RefreshTokenHandler { done in done(.success(())) })
            .logging(LogConfiguration(options: .default) { _ in })
    }

    private func completed(
        _ performer: any RequestPerforming, _ request: any Request = GetArticle()
    ) -> Result<Response, any Error>? {
        let result = LockedBox<Result<Response, any Error>?>(nil)
        performer.perform(request) { answer in result.update { $0 = answer } }
        return result.value
    }

    @Test func theRecommendedStackRunsEachEnhancerOncePerCall() throws {
        // Given the README's recommended stack over a spy that answers 200
        let spy = SpyPerformer([.response(Response(status: 200, body: Data("{}".utf8)))])
        let tokens = CountingTokens()

        // When one call goes through it
        let response = try #require(completed(recommended(over: spy, tokens: tokens))).get()

        // Then the token closure ran once, and what reached the spy carries that one token
        #expect(tokens.runs == 1)
        #expect(response.status == 200)
        #expect(spy.urlRequests.count == 1)
        #expect(spy.urlRequests[0]?.value(forHTTPHeaderField: "Authorization") == "Bearer token-1")
        #expect(spy.urlRequests[0]?.url?.absoluteString == "https://api.example.com/articles/7")
    }

    @Test func aRetriedCallIsBuiltAgainForEachAttempt() throws {
        // Given the recommended stack over a spy that answers 503, then 200
        let spy = SpyPerformer([.response(Response(status: 503)), .response(Response(status: 200))])
        let tokens = CountingTokens()

        // When one call goes through it
        let response = try #require(completed(recommended(over: spy, tokens: tokens))).get()

        // Then each of the two attempts ran the enhancers once, and sent its own token
        #expect(response.status == 200)
        #expect(tokens.runs == 2)
        #expect(
            spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Authorization") } == [
                "Bearer token-1", "Bearer token-2",
            ])
    }

    @Test func aRefreshedCallIsBuiltAgainForItsResend() throws {
        // Given the recommended stack over a spy that answers 401, then 200
        let spy = SpyPerformer([.response(Response(status: 401)), .response(Response(status: 200))])
        let tokens = CountingTokens()

        // When one call goes through it
        let response = try #require(completed(recommended(over: spy, tokens: tokens))).get()

        // Then the resend after the refresh ran the enhancers again, once
        #expect(response.status == 200)
        #expect(response.metrics.refreshes == 1)
        #expect(tokens.runs == 2)
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Authorization") == "Bearer token-2")
    }

    @Test func enhancersAboveAndBelowTheCacheEachRunOnce() throws {
        // Given an enhancer below a cache and one above it
        let spy = SpyPerformer([.response(Response(status: 200))])
        let above = CountingTokens()
        let below = CountingTokens()
        let api = spy.enhanced(by: ComputedHeader("X-Below") { _ in below.next() })
            .caching()
            .enhanced(by: BaseURL("https://api.example.com"), ComputedHeader("X-Above") { _ in above.next() })

        // When one call goes through
        _ = try #require(completed(api)).get()

        // Then each ran once, and the spy got both fields
        #expect(above.runs == 1)
        #expect(below.runs == 1)
        #expect(spy.urlRequests[0]?.value(forHTTPHeaderField: "X-Above") == "token-1")
        #expect(spy.urlRequests[0]?.value(forHTTPHeaderField: "X-Below") == "token-1")
    }

    @Test func aRevalidationSendsTheBuiltRequestMadeConditional() throws {
        // Given a stored response with an ETag and no freshness, over the recommended stack
        // whose token stays the same (a stored response answers only the same credentials)
        let tagged = Response(
            status: 200, headers: ["ETag": "\"v1\"", "Cache-Control": "public, no-cache"], body: Data("a".utf8))
        let spy = SpyPerformer([.response(tagged), .response(Response(status: 304, headers: ["ETag": "\"v1\""]))])
        let tokens = CountingTokens()
        let api = recommended(over: spy, tokens: tokens, sameToken: true)
        _ = try #require(completed(api)).get()

        // When the call is made again
        let second = try #require(completed(api)).get()

        // Then it ran the enhancers once more, and the spy saw the conditional request
        #expect(second.metrics.cache == .revalidated)
        #expect(second.body == Data("a".utf8))
        #expect(tokens.runs == 2)
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "If-None-Match") == "\"v1\"")
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Authorization") == "Bearer same")
    }

    @Test func aRequestThatDoesNotBuildFailsOnceWithItsReason() throws {
        // Given the recommended stack, and a token closure that throws
        struct NoToken: Error {}
        let spy = SpyPerformer([.response(Response(status: 200))])
        let api = spy.caching().coalescing().enhanced(by: BearerToken { throw NoToken() })

        // When a call goes through
        let result = try #require(completed(api, BasicRequest(url: URL(string: "https://api.example.com/a")!)))

        // Then it fails naming the enhancer, and the spy refused it without an answer
        let error = #expect(throws: FetchError.self) { try result.get() }
        #expect(error?.layer == "BearerToken")
        #expect(spy.calls.count == 1)
        #expect(spy.urlRequests == [nil])
    }
}
