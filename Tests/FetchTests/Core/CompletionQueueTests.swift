import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport
@testable import FetchCaching

/// Layers that answer a call themselves call back where the performer below does
/// (`completionQueue(for:)`), and over the spy, which names no queue, before `perform` returns.
@Suite struct CompletionQueueTests {
    private static let fresh = Response(
        status: 200, headers: ["Cache-Control": "max-age=60"], body: Data("cached".utf8))
    private static let url = URL(string: "https://api.example.com/items")!

    /// Performs `request` and waits for its completion; says whether it ran on `QueuedSpy`'s queue.
    private static func completes(_ performer: any RequestPerforming, _ request: any Request) async throws -> (
        onQueue: Bool, outcome: String
    ) {
        try await within("the call's completion") {
            await withCheckedContinuation { continuation in
                performer.perform(request) { result in
                    continuation.resume(returning: (QueuedSpy.isOnQueue, outcome(result)))
                }
            }
        }
    }

    @Test func aCacheHitOverAPerformerWithAQueueCompletesOnIt() async throws {
        // Given a cache over a performer whose completions run on its queue, holding a fresh response
        let performer = QueuedSpy(SpyPerformer([.response(Self.fresh)])).caching()
        _ = try await Self.completes(performer, BasicRequest(url: Self.url))

        // When the same request is answered from the cache
        let hit = try await Self.completes(performer, BasicRequest(url: Self.url))

        // Then the hit completed on that queue
        #expect(hit == (true, "200"))
        #expect(performer.base.completionQueue(for: BasicRequest(url: Self.url)) != nil)
    }

    @Test func aCancelledCoalescedCallAndACancelledRetryCompleteOnTheQueueBelow() async throws {
        // Given a held call shared through coalescing, and a retry waiting on a manual scheduler
        let spy = SpyPerformer([.hold, .status(503)])
        let coalesced = QueuedSpy(spy).coalescing()
        let retrying = QueuedSpy(spy).retrying(.exponential(maxAttempts: 3), scheduler: ManualScheduler())
        let request = BasicRequest(url: Self.url)

        // When a second caller joins and cancels, and the retry is cancelled while it waits
        _ = coalesced.perform(request) { _ in }
        let left = try await within("the cancelled coalesced call") {
            await withCheckedContinuation { continuation in
                coalesced.perform(request) { result in
                    continuation.resume(returning: (QueuedSpy.isOnQueue, outcome(result)))
                }.cancel()
            }
        }
        let stopped = try await within("the cancelled retry") {
            await withCheckedContinuation { continuation in
                retrying.perform(request) { result in
                    continuation.resume(returning: (QueuedSpy.isOnQueue, outcome(result)))
                }.cancel()
            }
        }

        // Then both cancellations arrived on the queue, not on the canceller's thread
        #expect(left == (true, "cancelled"))
        #expect(stopped == (true, "cancelled"))
        spy.pending.first?.cancel()
    }

    /// A spy that calls back on the call's own completion queue when it names one, as `Session` does.
    private struct OwnQueueSpy: RequestPerforming {
        let spy: SpyPerformer

        func perform(
            _ request: any Request, completion: @escaping @Sendable (Result<Response, any Error>) -> Void
        ) -> any Cancellable {
            spy.perform(request) { result in
                guard let queue = request.options.completionQueue else { return completion(result) }
                queue.async { completion(result) }
            }
        }
    }

    /// A queue for `completing(on:)`, and whether the code that asks runs on it.
    private static let marked = DispatchSpecificKey<Bool>()
    private static func markedQueue() -> DispatchQueue {
        let queue = DispatchQueue(label: "CompletionQueueTests.completing")
        queue.setSpecific(key: marked, value: true)
        return queue
    }

    /// Performs `request`, cancelling it at once when `cancel`; says whether its completion ran
    /// on a `markedQueue()`.
    private static func completesOnMarkedQueue(
        _ performer: any RequestPerforming, _ request: any Request, cancel: Bool
    ) async throws -> (onQueue: Bool, outcome: String) {
        try await within("the call's completion") {
            await withCheckedContinuation { continuation in
                let handle = performer.perform(request) { result in
                    continuation.resume(returning: (DispatchQueue.getSpecific(key: marked) == true, outcome(result)))
                }
                if cancel { handle.cancel() }
            }
        }
    }

    @Test func completingOnGivesEveryCallItsQueueAndCancellationsArriveThereToo() async throws {
        // Given a held call and a retry waiting on a manual scheduler, each above `completing(on:)`
        let spy = SpyPerformer([.status(200), .hold, .status(503)])
        let queue = Self.markedQueue()
        let completing = OwnQueueSpy(spy: spy).completing(on: queue)
        let retrying = completing.retrying(.exponential(maxAttempts: 3), scheduler: ManualScheduler())
        let request = BasicRequest(url: Self.url)

        // When a call completes, the held one is cancelled, and the retry is cancelled while it waits
        let answered = try await Self.completesOnMarkedQueue(completing, request, cancel: false)
        let held = try await Self.completesOnMarkedQueue(completing, request, cancel: true)
        let waiting = try await Self.completesOnMarkedQueue(retrying, request, cancel: true)

        // Then all three arrived on the queue, the calls went down naming it, and a call's own queue is kept
        #expect(answered == (true, "200"))
        #expect(held == (true, "cancelled"))
        #expect(waiting == (true, "cancelled"))
        #expect(spy.calls.allSatisfy { $0.request.options.completionQueue === queue })
        let own = DispatchQueue(label: "CompletionQueueTests.own")
        let namingItsOwn = get("https://x", options: RequestOptions().with(\.completionQueue, own))
        #expect(completing.completionQueue(for: namingItsOwn) === own)
    }

    @Test func overTheSpyEveryAnswerArrivesBeforePerformReturnsEvenWithACallsOwnQueue() {
        // Given a cache over a spy holding a fresh response, and a request naming its own queue
        let spy = SpyPerformer([.response(Self.fresh)])
        let performer = spy.caching().coalescing()
        let queue = DispatchQueue(label: "CompletionQueueTests.own")
        let request = BasicRequest(url: Self.url, options: RequestOptions().with(\.completionQueue, queue))

        // When it is performed twice: sent to the spy, then answered from the cache
        let sent = performNow(performer, request)
        let hit = performNow(performer, request)

        // Then both completed before `perform` returned, and the spy recorded the queue asked for
        #expect(outcome(sent) == "200")
        #expect((try? hit?.get())?.metrics.cache == .hit)
        #expect(spy.calls.first?.request.options.completionQueue === queue)
    }
}
