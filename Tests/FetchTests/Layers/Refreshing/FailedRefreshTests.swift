import Foundation
import Testing
import Fetch
import FetchTesting

/// A refresh that fails after a 401 reaches the error handlers above the refresh layer as
/// that 401, carrying the refresh's own error: the sign-out stack of the README.
@Suite struct FailedRefreshTests {
    enum AppError: Error, Equatable { case signedOut, refreshTokenExpired }

    @Test func aFailedRefreshCarriesThe401AndTheRefreshError() throws {
        // Given a 401 and a refresh that fails
        let spy = SpyPerformer([.status(401, body: "expired")])
        let api = spy.refreshing(with: RefreshTokenHandler { done in done(.failure(AppError.refreshTokenExpired)) })

        // When a call gets the 401
        let error = try #require(fetchError(performNow(api, get("https://api.example.com/me"))))

        // Then the error names the handler, holds the 401 response and the refresh's own error
        #expect(error.code == .layer)
        #expect(error.layer == "RefreshTokenHandler")
        #expect(error.status == 401)
        #expect(error.response?.bodyPreview() == "expired")
        #expect(error.thrown(as: AppError.self) == .refreshTokenExpired)
        #expect(spy.calls.count == 1)
    }

    @Test func theSignOutStackReplacesAFailedRefresh() {
        // Given the README's stack: a status handler for 401 above the refresh, which fails
        let store = TokenStore("old")
        let seen = Recorder<Response>()
        let spy = SpyPerformer([.status(401)])
        let api =
            spy
            .enhanced(by: BaseURL("https://api.example.com"), BearerToken(store))
            .retrying(.exponential(maxAttempts: 3), scheduler: ImmediateScheduler())
            .refreshing(with: RefreshTokenHandler { done in done(.failure(AppError.refreshTokenExpired)) })
            .handlingErrors([
                StatusErrorHandler(401) { response, _ in
                    seen.record(response)
                    return .replace(AppError.signedOut)
                }
            ])

        // When a call gets the 401 and the refresh fails
        let result = performNow(api, get("me"))

        // Then the handler saw the 401 and the caller gets its replacement; nothing was resent
        guard case .failure(let error as AppError)? = result else {
            Issue.record("expected AppError.signedOut, got \(outcome(result))")
            return
        }
        #expect(error == .signedOut)
        #expect(seen.all.map(\.status) == [401])
        #expect(seen.all.first?.url?.absoluteString == "https://api.example.com/me")
        #expect(spy.calls.count == 1)
    }

    @Test func aRefreshThatSucceedsNeverReachesTheHandler() {
        // Given the same stack with a refresh that works, and a resend that succeeds
        let store = TokenStore("old")
        let seen = Recorder<Response>()
        let spy = SpyPerformer([.status(401), .status(200)])
        let api =
            spy
            .enhanced(by: BaseURL("https://api.example.com"), BearerToken(store))
            .refreshing(
                with: RefreshTokenHandler { done in
                    store.token = "new"
                    done(.success(()))
                }
            )
            .handlingErrors([
                StatusErrorHandler(401) { response, _ in
                    seen.record(response)
                    return .replace(AppError.signedOut)
                }
            ])

        // When a call gets the 401
        let result = performNow(api, get("me"))

        // Then the resend's 200 is delivered and the handler never ran
        #expect(outcome(result) == "200")
        #expect(seen.all.isEmpty)
        #expect(spy.sentRequests.last?.value(forHTTPHeaderField: "Authorization") == "Bearer new")
    }
}
