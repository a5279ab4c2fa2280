import Foundation
import Testing
import Fetch
import FetchTesting
import TestSupport

/// An error handler that waits before it recovers, replaces, passes or retries.
@Suite struct AsyncErrorHandlerTests {
    /// Awaits an actor, then answers as told; records what it was given.
    struct Decider: AsyncErrorHandler {
        let answer: @Sendable (any Error) throws -> AsyncErrorHandlingResult
        let seen = Recorder<String>()
        let gate = Permission()

        func handles(_ error: any Error, for request: any Request) -> Bool { true }
        func handle(_ error: any Error, for request: any Request) async throws -> AsyncErrorHandlingResult {
            seen.record(outcome(.failure(error)))
            await gate.ask()
            return try answer(error)
        }
    }

    actor Permission {
        func ask() {}
    }

    struct Boom: Error {}

    @Test func itRecoversAfterWaiting() async throws {
        // Given a 503 and a handler that recovers with a fallback
        let spy = SpyPerformer([.status(503)])
        let handler = Decider { _ in .recover(Response(status: 200, body: Data("cached".utf8))) }
        let api = spy.handlingErrors(with: handler)

        // When the call is made
        let response = try await api.response(for: get("https://x/feed"))

        // Then the handler saw the 503 as httpStatus and the caller got the fallback, for its own request
        #expect(handler.seen.all == ["httpStatus"])
        #expect(response.body == Data("cached".utf8))
        #expect(response.request.url.absoluteString == "https://x/feed")
    }

    @Test func itCannotRecoverAStreamWhoseReaderHasItsHead() async throws {
        // Given a handler that recovers, over a stream cut after one chunk
        let spy = SpyPerformer([.stream([Data("ab".utf8)], then: FetchError(.connectionLost, reason: "reset"))])
        let handler = Decider { _ in .recover(Response(status: 200)) }
        let api = spy.handlingErrors(with: handler)

        // When it is streamed
        let chunks = Recorder<Data>()
        let end = try await within("the stream's completion") {
            await withCheckedContinuation { (done: CheckedContinuation<Result<Response, any Error>, Never>) in
                api.stream(get("https://x/feed"), onChunk: { chunks.record($0) }) { done.resume(returning: $0) }
            }
        }

        // Then the handler was asked, but the reader got the chunk, then the failure: the
        // stream never looks complete
        #expect(handler.seen.all == ["connectionLost"])
        #expect(chunks.all == [Data("ab".utf8)])
        let error = #expect(throws: FetchError.self) { try end.get() }
        #expect(error?.code == .connectionLost)
    }

    @Test func itReplacesAndTheLogSaysSo() async throws {
        // Given a 404 replaced by the app's error, logged
        let events = Recorder<LogEvent>()
        let api = SpyPerformer([.status(404)])
            .handlingErrors(with: Decider { _ in .replace(AppError(name: "missing")) })
            .logging(LogConfiguration(options: [.method, .url, .status]) { events.record($0) })

        // When the call is made
        let error = await #expect(throws: AppError.self) { try await api.response(for: get("https://x/a")) }

        // Then the caller got the replacement, and the log names both
        #expect(error == AppError(name: "missing"))
        #expect(events.all.map(\.message) == ["GET https://x/a -> 404, replaced by AppError(name: \"missing\")"])
    }

    @Test func itRetriesOnceThroughTheLayersBelow() async throws {
        // Given no connection, then a 200, and a handler that retries
        let spy = SpyPerformer([.failure(.notConnected), .status(200)])
        let api = spy.handlingErrors(with: Decider { _ in .retry })

        // When the call is made
        let response = try await api.response(for: get("https://x/a"))

        // Then the call was sent twice and the second answer delivered
        #expect(response.status == 200)
        #expect(spy.calls.count == 2)
    }

    @Test func aRetryThatFailsAgainIsDeliveredAsItIs() async throws {
        // Given two failures and a handler that always retries
        let spy = SpyPerformer([.failure(.notConnected), .failure(.timedOut)])
        let handler = Decider { _ in .retry }
        let api = spy.handlingErrors(with: handler)

        // When the call is made
        let error = await #expect(throws: FetchError.self) { try await api.response(for: get("https://x/a")) }

        // Then the second failure reaches the caller; nothing loops
        #expect(error?.code == .timedOut)
        #expect(spy.calls.count == 2)
        #expect(handler.seen.all == ["notConnected"])
    }

    @Test func aPassedStatusIsDeliveredAsTheResponse() async throws {
        // Given a 404 that the handler lets through
        let api = SpyPerformer([.status(404)]).handlingErrors(with: Decider { _ in .pass })

        // When the call is made
        let response = try await api.response(for: get("https://x/a"))

        // Then the 404 arrives as it came
        #expect(response.status == 404)
    }

    @Test func aHandlerThatThrowsFailsTheCallNamingIt() async throws {
        // Given a handler that throws
        let api = SpyPerformer([.failure(.notConnected)]).handlingErrors(with: Decider { _ in throw Boom() })

        // When the call is made
        let error = await #expect(throws: FetchError.self) { try await api.response(for: get("https://x/a")) }

        // Then it is a layer error naming the handler, with the handler's error inside
        #expect(error?.code == .layer)
        #expect(error?.layer == "Decider")
        #expect(error?.thrown(as: Boom.self) != nil)
    }

    @Test func successAndUnhandledErrorsPassAtOnce() {
        // Given a success, and a handler that handles nothing
        struct Nothing: AsyncErrorHandler {
            func handles(_ error: any Error, for request: any Request) -> Bool { false }
            func handle(_ error: any Error, for request: any Request) async throws -> AsyncErrorHandlingResult { .pass }
        }
        let api = SpyPerformer([.status(200), .failure(.timedOut)]).handlingErrors(with: Nothing())

        // When both calls are made with callbacks
        // Then each completes before perform returns, as it came
        #expect(outcome(performNow(api, get("https://x/a"))) == "200")
        #expect(outcome(performNow(api, get("https://x/a"))) == "timedOut")
    }

    @Test func cancellingWhileTheHandlerWaitsCompletesAtOnce() {
        // Given a failure and a handler that waits until cancelled
        struct Forever: AsyncErrorHandler {
            func handles(_ error: any Error, for request: any Request) -> Bool { true }
            func handle(_ error: any Error, for request: any Request) async throws -> AsyncErrorHandlingResult {
                // A stream that never yields: iterating it ends only when the Task is cancelled.
                let (stream, continuation) = AsyncStream<Void>.makeStream()
                withExtendedLifetime(continuation) {}
                for await _ in stream {}
                _ = continuation
                return .retry
            }
        }
        let spy = SpyPerformer([.failure(.notConnected)])
        let results = Recorder<Result<Response, any Error>>()
        let handle = spy.handlingErrors(with: Forever()).perform(get("https://x/a")) { results.record($0) }

        // When the call is cancelled
        handle.cancel()

        // Then it completed once, cancelled, and nothing was sent again
        #expect(outcome(results.single) == "cancelled")
        #expect(spy.calls.count == 1)
    }
}
