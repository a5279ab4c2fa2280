import Foundation
import Testing
import Fetch
import FetchTesting

/// Records what a presenter hears, as short strings.
final class SpyPresenter: RequestPresenting {
    let events = Recorder<String>()

    func loadingStarted(for request: any Request) { events.record("start") }
    func loadingEnded(for request: any Request) { events.record("end") }
    func show(_ error: any Error, for request: any Request) { events.record("show \(outcome(.failure(error)))") }
    func handlerFailed(_ error: any Error, handler: String, for request: any Request) {
        events.record("failed \(handler)")
    }
}

struct AppError: Error, Equatable { let name: String }

@Suite struct ErrorHandlingPerformerTests {
    @Test func theFirstHandlerThatHandlesTheErrorWins() {
        // Given two handlers for notConnected and a catch-all after them
        let spy = SpyPerformer([.failure(.notConnected)])
        let performer = spy.handlingErrors([
            CodeErrorHandler(.timedOut) { _, _ in .replace(AppError(name: "slow")) },
            CodeErrorHandler(.notConnected) { _, _ in .replace(AppError(name: "offline")) },
            CodeErrorHandler(.notConnected) { _, _ in .replace(AppError(name: "second")) },
            AnyErrorHandler { _, _ in .replace(AppError(name: "any")) },
        ])

        // When the call fails with notConnected
        let result = performNow(performer, get("http://x"))

        // Then the first matching handler replaced the error
        guard case .failure(let error as AppError) = result else {
            Issue.record("expected AppError, got \(outcome(result))")
            return
        }
        #expect(error == AppError(name: "offline"))
    }

    @Test func urlErrorsMatchByTheCodeTheyMapTo() {
        // Given a handler for notConnected and a raw URLError from below
        let performer = SpyPerformer([.failure(URLError(.notConnectedToInternet))]).handlingErrors([
            CodeErrorHandler(.notConnected) { error, _ in .replace(AppError(name: error.code.rawValue)) }
        ])

        // When the call fails
        let result = performNow(performer, get("http://x"))

        // Then the handler got it as notConnected
        guard case .failure(let error as AppError) = result else {
            Issue.record("expected AppError, got \(outcome(result))")
            return
        }
        #expect(error.name == "notConnected")
    }

    @Test func statusHandlersSeeErrorResponsesAndPassLetsThemThrough() throws {
        // Given handlers for 401 (replace) and 404 (pass)
        let handlers: [any ErrorHandler] = [
            StatusErrorHandler(401) { response, _ in .replace(AppError(name: "signed out \(response.status)")) },
            StatusErrorHandler(404) { _, _ in .pass },
            AnyErrorHandler { _, _ in .replace(AppError(name: "never")) },
        ]

        // When calls get 401, 404 and 200
        let unauthorized = performNow(SpyPerformer([.status(401)]).handlingErrors(handlers), get("http://x"))
        let missing = performNow(SpyPerformer([.status(404)]).handlingErrors(handlers), get("http://x"))
        let fine = performNow(SpyPerformer([.status(200)]).handlingErrors(handlers), get("http://x"))

        // Then 401 was replaced, 404 came through as the response, 200 was untouched
        guard case .failure(let error as AppError) = unauthorized else {
            Issue.record("expected AppError, got \(outcome(unauthorized))")
            return
        }
        #expect(error.name == "signed out 401")
        #expect(outcome(missing) == "404")
        #expect(outcome(fine) == "200")
    }

    @Test func aHandlerCanRecoverWithAResponse() {
        // Given a handler that answers timeouts with a cached response
        let performer = SpyPerformer([.failure(.timedOut)]).handlingErrors([
            CodeErrorHandler(.timedOut) { _, _ in .recover(.text("cached")) }
        ])

        // When the call times out
        let result = performNow(performer, get("http://x/cached"))

        // Then the caller gets the cached response, naming its own request
        #expect(outcome(result) == "200")
        #expect((try? result?.get().request.url.absoluteString) == "http://x/cached")
        #expect(String(decoding: (try? result?.get().body) ?? Data(), as: UTF8.self) == "cached")
    }

    @Test func unhandledErrorsPassThrough() {
        // Given a handler for another code
        let performer = SpyPerformer([.failure(.hostNotFound)]).handlingErrors([
            CodeErrorHandler(.timedOut) { _, _ in .replace(AppError(name: "slow")) }
        ])

        // When the call fails with hostNotFound
        // Then that error reaches the caller
        #expect(outcome(performNow(performer, get("http://x"))) == "hostNotFound")
    }

    @Test func theInlineOverrideRunsFirstAndCanStopTheChain() {
        // Given a chain replacing every error, and two requests with overrides: one decides, one declines
        let performer = SpyPerformer(match: { _ in .failure(.timedOut) }).handlingErrors([
            AnyErrorHandler { _, _ in .replace(AppError(name: "chain")) }
        ])
        let deciding = get("http://x").with(\.errorOverride) { _, _ in .replace(AppError(name: "inline")) }
        let declining = get("http://x").with(\.errorOverride) { _, _ in nil }

        // When both fail
        let decided = performNow(performer, deciding)
        let declined = performNow(performer, declining)

        // Then the deciding override stopped the chain, the declining one let it run
        guard case .failure(let first as AppError) = decided, case .failure(let second as AppError) = declined else {
            Issue.record("expected AppErrors, got \(outcome(decided)) and \(outcome(declined))")
            return
        }
        #expect(first.name == "inline")
        #expect(second.name == "chain")
    }

    @Test func aThrowingHandlerFailsTheCallNamingItAndTellsThePresenter() {
        // Given a handler that throws and a presenter
        let presenter = SpyPresenter()
        let performer = SpyPerformer([.failure(.timedOut)]).handlingErrors(
            [
                CodeErrorHandler(.timedOut) { _, _ in throw AppError(name: "broken") }
            ], presenter: presenter)

        // When the call fails
        let error = fetchError(performNow(performer, get("http://x")))

        // Then the call fails naming the handler; the presenter heard the failure, then showed the error
        #expect(error?.code == .layer)
        #expect(error?.layer == "CodeErrorHandler(timedOut)")
        #expect(presenter.events.all == ["start", "failed CodeErrorHandler(timedOut)", "end", "show layer"])
    }

    @Test func theCompositeRunsEveryMatchingHandlerInOrder() {
        // Given a composite that records, then replaces, then sees the replacement
        let seen = Recorder<String>()
        let composite = CompositeErrorHandler(
            AnyErrorHandler { error, _ in
                seen.record("log \(outcome(.failure(error)))")
                return .pass
            },
            CodeErrorHandler(.timedOut) { _, _ in .replace(AppError(name: "slow")) },
            AnyErrorHandler(where: { error, _ in error is AppError }) { _, _ in
                seen.record("saw AppError")
                return .pass
            },
            CodeErrorHandler(.timedOut) { _, _ in
                seen.record("never")
                return .pass
            }
        )
        let performer = SpyPerformer([.failure(.timedOut)]).handlingErrors([composite])

        // When the call times out
        let result = performNow(performer, get("http://x"))

        // Then each matching handler ran on the error of its turn, and the replacement won
        #expect(seen.all == ["log timedOut", "saw AppError"])
        guard case .failure(let error as AppError) = result else {
            Issue.record("expected AppError, got \(outcome(result))")
            return
        }
        #expect(error.name == "slow")
    }

    @Test func thePresenterPairsLoadingAndShowsErrors() {
        // Given a presenter and calls that succeed, fail, and fail quietly
        let presenter = SpyPresenter()
        let performer = SpyPerformer([.status(200), .failure(.timedOut), .failure(.timedOut)])
            .handlingErrors([], presenter: presenter)

        // When the three calls are made
        performNow(performer, get("http://x"))
        performNow(performer, get("http://x"))
        performNow(performer, get("http://x").with(\.presentsErrors, false))

        // Then loading started and ended around each, and only the loud failure was shown
        #expect(presenter.events.all == ["start", "end", "start", "end", "show timedOut", "start", "end"])
    }

    @Test func loadingEndsOnceForACancelledCallAndNothingIsShown() {
        // Given a held call and a presenter
        let presenter = SpyPresenter()
        let spy = SpyPerformer([.hold])
        let recorder = Recorder<Result<Response, any Error>>()
        let handle = spy.handlingErrors([], presenter: presenter).perform(get("http://x")) { recorder.record($0) }
        #expect(presenter.events.all == ["start"])

        // When the caller cancels, twice
        handle.cancel()
        handle.cancel()

        // Then loading ended once, no error was shown, and the caller got one cancellation
        #expect(presenter.events.all == ["start", "end"])
        #expect(outcome(recorder.single) == "cancelled")
    }

    @Test func callbackAndAsyncCallersSeeTheSame() async {
        // Given identical stacks whose handler recovers from 503
        func stack() -> LayeredPerformer {
            SpyPerformer([.status(503)]).handlingErrors([StatusErrorHandler(503) { _, _ in .recover(.status(299)) }])
        }

        // When one is called with a callback and one with async/await
        let callback = outcome(performNow(stack(), get("http://x")))
        let async = await asyncOutcome(stack(), get("http://x"))

        // Then both get the recovered response
        #expect(callback == "299")
        #expect(async == callback)
    }

    @Test func anUnhandledErrorStatusIsShownAndStillDeliveredAsTheResponse() {
        // Given a presenter, a chain with no handler for 500, and a call that gets 500
        let presenter = SpyPresenter()
        let performer = SpyPerformer([.status(500)]).handlingErrors(
            [
                StatusErrorHandler(401) { _, _ in .replace(AppError(name: "signed out")) }
            ], presenter: presenter)

        // When the call is made
        let result = performNow(performer, get("http://x"))

        // Then the caller gets the 500 response as before, and the presenter was told to show it
        #expect(outcome(result) == "500")
        #expect(presenter.events.all == ["start", "end", "show httpStatus"])
    }

    @Test func errorStatusesAreShownWithoutHandlersButNotWhenRecoveredOrQuiet() {
        // Given a presenter and no chain, then a chain that recovers from 503
        let presenter = SpyPresenter()
        let bare = SpyPerformer(match: { _ in .status(404) }).handlingErrors([], presenter: presenter)
        let recovering = SpyPerformer([.status(503)]).handlingErrors(
            [
                StatusErrorHandler(503) { _, _ in .recover(.status(200)) }
            ], presenter: presenter)

        // When a 404 is loud, a 404 is quiet, and a 503 is recovered
        let loud = performNow(bare, get("http://x"))
        let quiet = performNow(bare, get("http://x").with(\.presentsErrors, false))
        let recovered = performNow(recovering, get("http://x"))

        // Then only the loud 404 was shown, and every caller got its response
        #expect([outcome(loud), outcome(quiet), outcome(recovered)] == ["404", "404", "200"])
        #expect(presenter.events.all == ["start", "end", "show httpStatus", "start", "end", "start", "end"])
    }
}
