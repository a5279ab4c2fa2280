import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport

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
