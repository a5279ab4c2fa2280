import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct HonestLogTests {
    enum AppError: Error { case notFound, offline }

    /// Method, URL and status (no time, so lines compare exactly), with `extra`.
    private func configuration(_ extra: LogOptions = []) -> (LogConfiguration, Recorder<LogEvent>) {
        let events = Recorder<LogEvent>()
        return (LogConfiguration(options: [.method, .url, .status, extra]) { events.record($0) }, events)
    }

    @Test func aReplacedErrorIsLoggedWithTheAbsoluteURLAndTheRealStatus() {
        // Given a handler below logging that replaces a 404, under a base URL
        let (configuration, events) = configuration()
        let api = SpyPerformer([.status(404)])
            .enhanced(by: BaseURL("http://127.0.0.1:18090"))
            .handlingErrors([StatusErrorHandler(404) { _, _ in .replace(AppError.notFound) }])
            .logging(configuration)

        // When a relative request gets the 404
        _ = performNow(api, BasicRequest(url: URL(string: "status/404")!))

        // Then the line has the URL sent and the status that came, then the app's error
        #expect(events.all.map(\.message) == ["GET http://127.0.0.1:18090/status/404 -> 404, replaced by notFound"])
    }

    @Test func aReplacedTransportErrorIsLoggedWithTheAbsoluteURL() {
        // Given a handler that replaces "not connected", under a base URL
        let (configuration, events) = configuration()
        let api = SpyPerformer([.failure(.notConnected, reason: "offline")])
            .enhanced(by: BaseURL("https://api.example.com"))
            .handlingErrors([CodeErrorHandler(.notConnected) { _, _ in .replace(AppError.offline) }])
            .logging(configuration)

        // When a relative request fails
        _ = performNow(api, BasicRequest(url: URL(string: "thing")!))

        // Then the line has the absolute URL, what came and what was delivered
        #expect(
            events.all.map(\.message) == [
                "GET https://api.example.com/thing -> notConnected: offline, replaced by offline"
            ])
    }

    @Test func retriesAndARefreshCanBeLoggedPerAttempt() {
        // Given retry of 503s and a refresh after a 401, logged per attempt
        let (configuration, events) = configuration(.attempts)
        let spy = SpyPerformer([.status(503), .status(401), .status(200)])
        let api = spy.enhanced(by: BaseURL("https://api.example.com"))
            .retrying(.exponential(maxAttempts: 3), scheduler: ImmediateScheduler())
            .refreshing(with: RefreshTokenHandler { done in done(.success(())) })
            .logging(configuration)

        // When a call needs all three attempts
        let result = performNow(api, BasicRequest(url: URL(string: "jobs")!))

        // Then each earlier attempt has its line, then the call's
        #expect(outcome(result) == "200")
        #expect(
            events.all.map(\.message) == [
                "GET https://api.example.com/jobs -> 503 (attempt 1, sent again)",
                "GET https://api.example.com/jobs -> 401 (attempt 2, sent again)",
                "GET https://api.example.com/jobs -> 200",
            ])
        #expect(spy.calls.count == 3)
    }

    @Test func withoutTheOptionARetriedCallIsOneLine() {
        // Given retry without the attempts option
        let (configuration, events) = configuration()
        let api = SpyPerformer([.status(503), .status(200)])
            .retrying(.exponential(maxAttempts: 3), scheduler: ImmediateScheduler())
            .logging(configuration)

        // When the call is retried once
        _ = performNow(api, get("https://api.example.com/jobs"))

        // Then there is one line, for the call
        #expect(events.all.map(\.message) == ["GET https://api.example.com/jobs -> 200"])
    }
}

@Suite struct NoFalseReplacementLogTests {
    enum AppError: Error { case refreshTokenExpired, signedOut }

    private func configuration() -> (LogConfiguration, Recorder<LogEvent>) {
        let events = Recorder<LogEvent>()
        return (LogConfiguration(options: [.method, .url, .status]) { events.record($0) }, events)
    }

    @Test func aFailedRefreshIsNotLoggedAsAReplacement() {
        // Given a refresh that fails after a 401, and no error handler
        let (configuration, events) = configuration()
        let api = SpyPerformer([.status(401)])
            .enhanced(by: BaseURL("https://api.example.com"))
            .refreshing(with: RefreshTokenHandler { done in done(.failure(AppError.refreshTokenExpired)) })
            .logging(configuration)

        // When a call gets the 401
        _ = performNow(api, BasicRequest(url: URL(string: "me")!))

        // Then the line says the refresh failed, and nothing about a replacement
        #expect(
            events.all.map(\.message) == [
                "GET https://api.example.com/me -> layer: RefreshTokenHandler failed, so the call was not resent: "
                    + "refreshTokenExpired"
            ])
    }

    @Test func aHandlerThatReplacesTheFailedRefreshIsNamedAfterIt() {
        // Given the sign-out stack: a 401 handler above a refresh that fails
        let (configuration, events) = configuration()
        let api = SpyPerformer([.status(401)])
            .enhanced(by: BaseURL("https://api.example.com"))
            .refreshing(with: RefreshTokenHandler { done in done(.failure(AppError.refreshTokenExpired)) })
            .handlingErrors([StatusErrorHandler(401) { _, _ in .replace(AppError.signedOut) }])
            .logging(configuration)

        // When a call gets the 401
        _ = performNow(api, BasicRequest(url: URL(string: "me")!))

        // Then the line says what failed, then what replaced it
        #expect(
            events.all.map(\.message) == [
                "GET https://api.example.com/me -> layer: RefreshTokenHandler failed, so the call was not resent: "
                    + "refreshTokenExpired, replaced by signedOut"
            ])
    }

    @Test func aCancelledRetryWaitIsLoggedAsCancelledNotReplaced() {
        // Given a 503 whose retry waits on a clock that never moves
        let (configuration, events) = configuration()
        let api = SpyPerformer([.status(503)])
            .retrying(.constant(maxAttempts: 2, delay: .seconds(1)), scheduler: ManualScheduler())
            .logging(configuration)

        // When the call is cancelled during the wait
        let handle = api.perform(get("https://api.example.com/jobs")) { _ in }
        handle.cancel()

        // Then the line says cancelled, at the URL sent, and nothing about a replacement
        #expect(events.all.map(\.message) == ["GET https://api.example.com/jobs -> cancelled: cancelled"])
    }
}
