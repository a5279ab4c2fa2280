import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct SilentTrapsTests {
    enum Offline: Error, Equatable { case offline }

    @Test func theRetryableSampleRetriesA503WhenItRequiresSuccess() {
        // Given a spy answering 503 then 200, asked through performRetryable twice
        let spy = SpyPerformer([.status(503), .status(200), .status(503)])
        let required = Captured<Int>()
        let plain = Captured<Int>()

        // When the README's sample runs with requiringSuccess(), then without it
        spy.performRetryable(get("https://api.example.com/a"), scheduler: ImmediateScheduler()) { result, retry in
            let result = result.requiringSuccess()
            if case .failure = result, retry.retry(maxAttempts: 3, delay: .seconds(1)) { return }
            required.record((try? result.get().status) ?? 0)
        }
        spy.performRetryable(get("https://api.example.com/b"), scheduler: ImmediateScheduler()) { result, retry in
            if case .failure = result, retry.retry(maxAttempts: 3, delay: .seconds(1)) { return }
            plain.record((try? result.get().status) ?? 0)
        }

        // Then the first retried the 503 and got the 200; the second took the 503 as a success
        #expect(required.all == [200])
        #expect(plain.all == [503])
        #expect(spy.requests.map(\.url.path) == ["/a", "/a", "/b"])
    }

    @Test func anErrorAHookOrAnEnhancerThrowsIsFoundAsItselfAndNamesItsLayer() {
        // Given a hook and an enhancer that throw the app's own error
        struct Offline503: Enhancer {
            func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws { throw Offline.offline }
        }
        let hooked = SpyPerformer([.status(200)]).hooking(pre: [
            PreRequestHook("reachability") { _ in throw Offline.offline }
        ])
        let enhanced = SpyPerformer([.status(200)]).enhanced(by: Offline503())

        // When each performs a call
        let errors = [
            performNow(hooked, get("https://api.example.com/a")),
            performNow(enhanced, get("https://api.example.com/a")),
        ].map(fetchError)

        // Then the app's error is found with thrown(as:), and the FetchError names the layer
        #expect(errors.map { $0?.thrown(as: Offline.self) } == [.offline, .offline])
        #expect(errors.map { $0?.layer } == ["reachability", "Offline503"])
        #expect(FetchError(.timedOut, reason: "slow").thrown(as: Offline.self) == nil)
    }

    @Test func aFailedRefreshNamesTheCallItWasForAndCarriesItsOwnError() throws {
        // Given a refresh whose own call fails with a 400 from the token endpoint
        let tokenError = FetchError.httpStatus(
            Response(
                request: BasicRequest(
                    url: URL(string: "https://auth.example.com/token")!,
                    method: .post), status: 400))
        let handler = RefreshTokenHandler { done in done(.failure(tokenError)) }
        let api = SpyPerformer([.status(401)]).resuming(with: handler)

        // When a call gets a 401
        let error = try #require(fetchError(performNow(api, get("https://api.example.com/users/7"))))

        // Then the error names the handler and the call, and carries the refresh's own error
        #expect(error.code == .layer)
        #expect(error.layer == "RefreshTokenHandler")
        #expect(error.url?.absoluteString == "https://api.example.com/users/7")
        #expect(error.description.hasPrefix("GET https://api.example.com/users/7: RefreshTokenHandler failed"))
        let underlying = try #require(error.underlying as? FetchError)
        #expect(underlying.status == 400)
        #expect(underlying.url?.absoluteString == "https://auth.example.com/token")
    }

    @Test func anErrorHandlerAboveTheRefreshLetsTheRefreshHappen() throws {
        // Given the README's order: the 401 handler above the refresh layer
        let store = TokenStore("old")
        let spy = SpyPerformer([.status(401), .status(200)])
        let api = spy.enhanced(by: BearerToken(store))
            .resuming(
                with: RefreshTokenHandler { done in
                    store.token = "new"
                    done(.success(()))
                }
            )
            .handlingErrors([StatusErrorHandler(401) { _, _ in .replace(Offline.offline) }])

        // When a call gets a 401
        let result = performNow(api, get("https://api.example.com/me"))

        // Then the token was refreshed, the call resent with it, and the handler never replaced anything
        #expect(try result?.get().status == 200)
        #expect(try spy.sent(1).header("Authorization") == "Bearer new")
    }
}
