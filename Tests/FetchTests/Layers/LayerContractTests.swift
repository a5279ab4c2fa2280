import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport
@testable import FetchCaching

/// A layer written from the public API alone: it sends a call once more when it meets a 503.
struct ResendOn503: Layer {
    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        next.perform(request) { result in
            guard case .success(let response) = result, response.status == 503 else {
                return completion(result)
            }
            next.perform(request, completion: completion)
        }
    }
}

/// What `LayeredPerformer` does for every layer: one completion, cancellation, the queue of
/// results a layer makes itself, and each attempt built again.
@Suite struct LayerContractTests {
    /// A layer that answers with `answer` without calling `next`, as many times as `times` says.
    struct Answering: Layer {
        let answer: Result<Response, any Error>
        var times = 1

        func perform(
            _ request: any Request, next: any RequestPerforming,
            completion: @escaping @Sendable (Result<Response, any Error>) -> Void
        ) -> any Cancellable {
            for _ in 0..<times { completion(answer) }
            return CancellationHandle()
        }
    }

    /// A layer that passes the call to `next` and reports whether its own handle was cancelled.
    struct Passing: Layer {
        let ownHandle = CancellationHandle()

        func perform(
            _ request: any Request, next: any RequestPerforming,
            completion: @escaping @Sendable (Result<Response, any Error>) -> Void
        ) -> any Cancellable {
            _ = next.perform(request, completion: completion)
            return ownHandle
        }
    }

    @Test func aLayerOfTwentyLinesResendsThroughNext() {
        // Given the user's layer over a spy that answers 503, then 200
        let spy = SpyPerformer([.status(503), .status(200)])

        // When a GET goes through it
        let result = performNow(spy.layered(ResendOn503()), get("http://x"))

        // Then it was sent twice and the caller got the 200
        #expect(outcome(result) == "200")
        #expect(spy.calls.count == 2)
    }

    /// A layer that sends the call twice at once and answers with both statuses, in the order
    /// the attempts answered.
    struct Twice: Layer {
        func perform(
            _ request: any Request, next: any RequestPerforming,
            completion: @escaping @Sendable (Result<Response, any Error>) -> Void
        ) -> any Cancellable {
            let statuses = LockedBox<[String]>([])
            let answered: @Sendable (String, Result<Response, any Error>) -> Void = { attempt, result in
                let status = (try? result.get()).map { "\(attempt):\($0.status)" } ?? "\(attempt):error"
                statuses.update { $0.append(status) }
                guard statuses.value.count == 2 else { return }
                completion(.success(Response(status: 200, body: Data(statuses.value.joined(separator: " ").utf8))))
            }
            _ = next.perform(request) { answered("first", $0) }
            _ = next.perform(request) { answered("second", $0) }
            return CancellationHandle()
        }
    }

    @Test func attemptsInFlightAtOnceEachGetTheirOwnResult() {
        // Given a layer that sends two attempts at once over a spy that holds both
        let spy = SpyPerformer([.hold, .hold])
        let recorder = Recorder<Result<Response, any Error>>()
        spy.layered(Twice()).perform(get("http://x")) { recorder.record($0) }
        let (first, second) = (spy.pending[0], spy.pending[1])

        // When the second attempt is answered before the first
        second.respond(Response(status: 202))
        first.respond(Response(status: 201))

        // Then each attempt's completion got its own answer, and the caller heard once
        #expect(recorder.count == 1)
        #expect(
            (try? recorder.single?.get()).map { String(decoding: $0.body, as: UTF8.self) } == "second:202 first:201")
    }

    @Test func aLayerThatCompletesTwiceCompletesTheCallerOnce() {
        // Given a layer that calls its completion twice
        let layer = Answering(answer: .success(Response(status: 204)), times: 2)
        let recorder = Recorder<Result<Response, any Error>>()

        // When a call goes through it
        SpyPerformer().layered(layer).perform(get("http://x")) { recorder.record($0) }

        // Then the caller heard once
        #expect(recorder.count == 1)
        #expect(outcome(recorder.single) == "204")
    }

    @Test func cancellingCancelsWhatIsInFlightThroughNextAndTheLayersOwnWork() {
        // Given a layer over a spy that holds the call
        let spy = SpyPerformer([.hold])
        let layer = Passing()
        let recorder = Recorder<Result<Response, any Error>>()
        let call = spy.layered(layer).perform(get("http://x")) { recorder.record($0) }

        // When the call is cancelled
        call.cancel()

        // Then the caller got one cancellation, and the held call and the layer's work were cancelled
        #expect(outcome(recorder.single) == "cancelled")
        #expect(spy.pending.isEmpty)
        #expect(layer.ownHandle.isCancelled)
    }

    @Test func aResultTheLayerMakesItselfArrivesOnTheQueueBelow() async throws {
        // Given a layer that answers itself, over a performer with a queue of its own
        let performer = QueuedSpy(SpyPerformer()).layered(Answering(answer: .success(Response(status: 204))))

        // When a call goes through it
        let onQueue = try await within("the layer's answer") {
            await withCheckedContinuation { continuation in
                performer.perform(get("http://x")) { _ in
                    continuation.resume(returning: QueuedSpy.isOnQueue)
                }
            }
        }

        // Then it arrived on that queue
        #expect(onQueue)
    }

    @Test func eachCallToNextAfterTheFirstIsBuiltAgain() throws {
        // Given the user's layer under a cache that builds the request once, and a token that
        // changes each time it is read
        let spy = SpyPerformer([.status(503), .status(200)])
        let counter = LockedBox(0)
        let stack = spy.layered(ResendOn503()).caching().enhanced(
            by: BearerToken {
                counter.update { $0 += 1 }
                return "token-\(counter.value)"
            })

        // When one call goes through it
        let result = performNow(stack, get("https://api.example.com/a"))

        // Then the second attempt was built again and carried its own token
        #expect(outcome(result) == "200")
        #expect(
            spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Authorization") } == [
                "Bearer token-1", "Bearer token-2",
            ])
    }

    @Test func aStreamWhoseReaderHasItsResponseIsNotSentAgain() {
        // Given the user's layer over a stream that starts, then fails with a 503-like cut
        let spy = SpyPerformer([.stream([Data("ab".utf8)], status: 503), .text("never sent")])
        let seen = Recorder<String>()

        // When streamed, accepting any status, so the reader has the 503's head
        spy.layered(ResendOn503()).stream(
            BasicRequest(url: URL(string: "http://x")!), acceptingAnyStatus: true,
            onChunk: { seen.record(String(decoding: $0, as: UTF8.self)) }
        ) { result in
            seen.record(fetchError(result).map { "\($0.code)" } ?? "no error")
        }

        // Then the second attempt was refused with an error naming the layer, and nothing was sent again
        #expect(spy.calls.count == 1)
        #expect(seen.all == ["ab", "layer"])
    }
    /// A layer that reads what it sends, then has `change` made to it through `PreparedRequest.adding`.
    struct Stamping: PreparingLayer {
        struct Change: Enhancer {
            let change: @Sendable (inout URLRequest) -> Void
            func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws { change(&urlRequest) }
        }
        let change: @Sendable (inout URLRequest) -> Void

        func perform(
            _ request: any Request, next: any RequestPerforming,
            completion: @escaping @Sendable (Result<Response, any Error>) -> Void
        ) -> any Cancellable {
            do {
                let stamped = try next.prepare(request).checked().adding(Change(change: change))
                return next.perform(stamped.request, completion: completion)
            } catch {
                completion(.failure(error))
                return NothingToCancel()
            }
        }
    }

    @Test(arguments: ["a field holding CR LF", "no URL"])
    func whatALayerAddsToAPreparedRequestIsCheckedBeforeItIsSent(change: String) {
        // Given the user's layer that sets a field with CR LF as a whole (on Linux, unlike `setValue`, this keeps
        // it), or takes the URL away
        let spy = SpyPerformer([.status(200)])
        let layer = Stamping { urlRequest in
            if change == "no URL" { urlRequest.url = nil } else { urlRequest.allHTTPHeaderFields = ["X": "a\r\nY: b"] }
        }

        // When a GET goes through it
        let result = performNow(spy.layered(layer), get("https://api.example.com/a"))

        // Then the call fails as an invalid request, and nothing was sent
        #expect(fetchError(result)?.code == .invalidRequest)
        #expect(spy.calls.isEmpty)
    }
    @Test func aRequestALayerPreparedButDidNotCheckIsCheckedBelow() {
        // Given the user's layer that reads what it sends and passes it on unchecked, and a field with CR LF
        struct Reading: PreparingLayer {
            func perform(
                _ request: any Request, next: any RequestPerforming,
                completion: @escaping @Sendable (Result<Response, any Error>) -> Void
            ) -> any Cancellable {
                next.perform(next.prepare(request).request, completion: completion)
            }
        }
        let spy = SpyPerformer([.status(200)])
        let request = BasicRequest(url: URL(string: "https://api.example.com/a")!, headers: ["X": "a\r\nY: b"])

        // When it goes through the layer
        let result = performNow(spy.layered(Reading()), request)

        // Then the call fails as an invalid request, and nothing was sent
        #expect(fetchError(result)?.code == .invalidRequest)
        #expect(spy.calls.allSatisfy { $0.urlRequest == nil })
    }
}
