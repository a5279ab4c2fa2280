import Foundation
import Testing
import Fetch
import FetchTesting

@Suite struct CallerRetryTests {
    @Test func theCallerRetriesFromItsCallbackUpToItsMaximum() {
        // Given three failures then a success
        let spy = SpyPerformer([.status(500), .status(500), .status(500), .status(200)])
        let scheduler = ImmediateScheduler()
        let seen = Recorder<(Int, String)>()
        let retried = Recorder<Bool>()

        // When the callback retries every failure, up to 3 attempts, 1 second apart
        spy.performRetryable(get("http://x"), scheduler: scheduler) { result, retry in
            seen.record((retry.attempt, outcome(result)))
            retried.record(outcome(result) != "200" && retry.retry(max: 3, delay: .seconds(1)))
        }

        // Then the callback saw attempts 1, 2 and 3; the third could not retry
        #expect(seen.all.map(\.0) == [1, 2, 3])
        #expect(seen.all.map(\.1) == ["500", "500", "500"])
        #expect(retried.all == [false, true, true])   // recorded innermost first: the third answered false
        #expect(spy.calls.count == 3)
        #expect(scheduler.delays == [.seconds(1), .seconds(1)])
    }

    @Test func retryCanOnlyBeAskedOncePerAttempt() {
        // Given a failing call
        let spy = SpyPerformer([.status(500), .status(200)])
        let answers = Recorder<[Bool]>()

        // When the callback asks twice for a retry of the first attempt
        spy.performRetryable(get("http://x"), scheduler: ManualScheduler()) { _, retry in
            answers.record([retry.retry(max: 5), retry.retry(max: 5)])
        }

        // Then only the first request counts
        #expect(answers.single == [true, false])
    }

    @Test func retryFollowingAPolicyUsesItsDecisionAndCounting() {
        // Given a policy of 2 attempts and only 503s
        let spy = SpyPerformer(match: { _ in .status(503) })
        let scheduler = ImmediateScheduler()
        let attempts = Recorder<Int>()
        let policy = RetryPolicy.constant(maxAttempts: 2, delay: .seconds(3))

        // When the callback follows the policy
        spy.performRetryable(get("http://x"), scheduler: scheduler) { _, retry in
            attempts.record(retry.attempt)
            retry.retry(following: policy)
        }

        // Then the policy's counting and delay were used
        #expect(attempts.all == [1, 2])
        #expect(scheduler.delays == [.seconds(3)])
    }

    @Test func cancellingDuringTheWaitReportsOneCancellation() {
        // Given a retry waiting on a manual scheduler
        let spy = SpyPerformer([.status(500), .status(200)])
        let scheduler = ManualScheduler()
        let seen = Recorder<(Int, String, Bool)>()
        let handle = spy.performRetryable(get("http://x"), scheduler: scheduler) { result, retry in
            seen.record((retry.attempt, outcome(result), retry.retry(max: 3)))
        }

        // When the caller cancels and time passes
        handle.cancel()
        scheduler.runAll()

        // Then the callback got the 500, then one cancellation that cannot be retried; nothing more was sent
        #expect(seen.all.map(\.1) == ["500", "cancelled"])
        #expect(seen.all.map(\.2) == [true, false])
        #expect(spy.calls.count == 1)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func cancellingAnAttemptInFlightReportsOneCancellation() {
        // Given an attempt held open
        let spy = SpyPerformer([.hold])
        let seen = Recorder<String>()
        let handle = spy.performRetryable(get("http://x"), scheduler: ImmediateScheduler()) { result, _ in
            seen.record(outcome(result))
        }

        // When the caller cancels
        handle.cancel()

        // Then the held call was cancelled and the callback heard it once
        #expect(seen.all == ["cancelled"])
        #expect(spy.pending.isEmpty)
    }

    @Test func cancellingAfterTheLastAttemptDoesNothing() {
        // Given a call whose callback did not retry
        let spy = SpyPerformer([.status(200)])
        let seen = Recorder<String>()
        let handle = spy.performRetryable(get("http://x"), scheduler: ImmediateScheduler()) { result, _ in
            seen.record(outcome(result))
        }

        // When the caller cancels afterwards
        handle.cancel()

        // Then nothing more is delivered
        #expect(seen.all == ["200"])
    }

    @Test func eachAttemptIsDeliveredOnceWhenCancelRacesTheAnswer() {
        // Given many held calls made with performRetryable
        let spy = SpyPerformer(match: { _ in .hold })
        let recorders = (0..<200).map { _ in Recorder<String>() }
        let handles = recorders.map { recorder in
            spy.performRetryable(get("http://x"), scheduler: ImmediateScheduler()) { result, _ in recorder.record(outcome(result)) }
        }
        let pending = spy.pending

        // When each is answered and cancelled at the same time on different threads
        DispatchQueue.concurrentPerform(iterations: handles.count * 2) { index in
            if index % 2 == 0 { pending[index / 2].respond(.status(200)) } else { handles[index / 2].cancel() }
        }

        // Then every callback ran exactly once, with the answer or the cancellation
        #expect(recorders.allSatisfy { $0.count == 1 })
    }
}
