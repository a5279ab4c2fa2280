import Foundation
import Testing
import Fetch
import FetchTesting

@Suite struct CallerRetryTests {
    @Test func maxAttemptsCountsAttemptsTheFirstIncludedAsAPolicyDoes() {
        // Given a spy that always answers 500, called back by the caller and by a policy
        let spy = SpyPerformer(match: { _ in .status(500) })
        let scheduler = ImmediateScheduler()

        // When the callback retries every failure up to 3 attempts, and a policy of 3 attempts does
        spy.performRetryable(get("http://x"), scheduler: scheduler) { _, retry in _ = retry.retry(maxAttempts: 3) }
        let byCaller = spy.calls.count
        spy.retrying(.constant(maxAttempts: 3, delay: .zero), scheduler: scheduler).perform(get("http://x")) { _ in }

        // Then each sent the request three times in all: two retries
        #expect(byCaller == 3)
        #expect(spy.calls.count - byCaller == 3)
    }

    @Test func theCallerRetriesFromItsCallbackUpToItsMaximum() {
        // Given three failures then a success
        let spy = SpyPerformer([.status(500), .status(500), .status(500), .status(200)])
        let scheduler = ImmediateScheduler()
        let seen = Recorder<(Int, String)>()
        let retried = Recorder<Bool>()

        // When the callback retries every failure, up to 3 attempts, 1 second apart
        spy.performRetryable(get("http://x"), scheduler: scheduler) { result, retry in
            seen.record((retry.attempt, outcome(result)))
            retried.record(outcome(result) != "200" && retry.retry(maxAttempts: 3, delay: .seconds(1)))
        }

        // Then the callback saw attempts 1, 2 and 3; the third could not retry
        #expect(seen.all.map(\.0) == [1, 2, 3])
        #expect(seen.all.map(\.1) == ["500", "500", "500"])
        #expect(retried.all == [false, true, true])  // recorded innermost first: the third answered false
        #expect(spy.calls.count == 3)
        #expect(scheduler.delays == [.seconds(1), .seconds(1)])
    }

    @Test func retryCanOnlyBeAskedOncePerAttempt() {
        // Given a failing call
        let spy = SpyPerformer([.status(500), .status(200)])
        let answers = Recorder<[Bool]>()

        // When the callback asks twice for a retry of the first attempt
        spy.performRetryable(get("http://x"), scheduler: ManualScheduler()) { _, retry in
            answers.record([retry.retry(maxAttempts: 5), retry.retry(maxAttempts: 5)])
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
            seen.record((retry.attempt, outcome(result), retry.retry(maxAttempts: 3)))
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
            spy.performRetryable(get("http://x"), scheduler: ImmediateScheduler()) { result, _ in
                recorder.record(outcome(result))
            }
        }
        let pending = spy.pending

        // When each is answered and cancelled at the same time on different threads
        DispatchQueue.concurrentPerform(iterations: handles.count * 2) { index in
            if index % 2 == 0 { pending[index / 2].respond(.status(200)) } else { handles[index / 2].cancel() }
        }

        // Then every callback ran exactly once, with the answer or the cancellation
        #expect(recorders.allSatisfy { $0.count == 1 })
    }

    @Test func aRetryAskedAfterTheCallbackReturnedSendsTheNextAttempt() {
        // Given a call whose callback keeps its retry for later instead of using it
        let spy = SpyPerformer([.status(500), .status(200)])
        let scheduler = ImmediateScheduler()
        let seen = Recorder<(Int, String)>()
        let kept = Recorder<CallerRetry>()
        spy.performRetryable(get("http://x"), scheduler: scheduler) { result, retry in
            seen.record((retry.attempt, outcome(result)))
            kept.record(retry)
        }
        let sentBeforeRetry = spy.calls.count

        // When the first attempt's retry is asked after the callback returned
        let answer = kept.all.first?.retry(maxAttempts: 3, delay: .seconds(2))

        // Then the second attempt went out after the wait and reached the callback
        #expect(sentBeforeRetry == 1)
        #expect(answer == true)
        #expect(spy.calls.count == 2)
        #expect(seen.all.map(\.0) == [1, 2])
        #expect(seen.all.map(\.1) == ["500", "200"])
        #expect(scheduler.delays == [.seconds(2)])
    }

    @Test func aRetryOfAnAttemptThatIsNoLongerTheLastIsRefused() {
        // Given a call whose first attempt was retried and whose second was delivered
        let spy = SpyPerformer([.status(500), .status(500), .status(200)])
        let kept = Recorder<CallerRetry>()
        spy.performRetryable(get("http://x"), scheduler: ImmediateScheduler()) { _, retry in kept.record(retry) }
        let first = kept.all[0]
        #expect(first.retry(maxAttempts: 5))
        #expect(kept.count == 2)

        // When the first attempt's retry is asked again, late
        let answer = first.retry(maxAttempts: 5)

        // Then it is refused and nothing more is sent; the second attempt can still be retried
        #expect(answer == false)
        #expect(spy.calls.count == 2)
        #expect(kept.all[1].retry(maxAttempts: 5))
        #expect(spy.calls.count == 3)
    }

    @Test func aRetryKeptForLaterIsRefusedAfterCancel() {
        // Given a delivered attempt whose retry the caller kept
        let spy = SpyPerformer([.status(500), .status(200)])
        let scheduler = ImmediateScheduler()
        let seen = Recorder<String>()
        let kept = Recorder<CallerRetry>()
        let handle = spy.performRetryable(get("http://x"), scheduler: scheduler) { result, retry in
            seen.record(outcome(result))
            kept.record(retry)
        }

        // When the caller cancels, then asks for the retry
        handle.cancel()
        let answer = kept.single?.retry(maxAttempts: 3)

        // Then the retry is refused, nothing more is sent or delivered, and nothing waited
        #expect(answer == false)
        #expect(spy.calls.count == 1)
        #expect(seen.all == ["500"])
        #expect(scheduler.delays.isEmpty)
    }

    @Test func cancellingAnAttemptSentByALateRetryReportsItOnce() {
        // Given a first attempt retried after the callback returned, whose second attempt is held
        let spy = SpyPerformer([.status(500), .hold])
        let seen = Recorder<(Int, String)>()
        let kept = Recorder<CallerRetry>()
        let handle = spy.performRetryable(get("http://x"), scheduler: ImmediateScheduler()) { result, retry in
            seen.record((retry.attempt, outcome(result)))
            kept.record(retry)
        }
        #expect(kept.single?.retry(maxAttempts: 3) == true)
        #expect(spy.pending.count == 1)

        // When the caller cancels
        handle.cancel()

        // Then the held attempt was cancelled and the callback heard the cancellation once, as attempt 2
        #expect(spy.pending.isEmpty)
        #expect(seen.all.map(\.0) == [1, 2])
        #expect(seen.all.map(\.1) == ["500", "cancelled"])
    }

    @Test func theCancellationDuringAWaitIsNumberedAsTheAttemptItStopped() {
        // Given attempt 1 delivered and the wait for attempt 2 pending on a manual scheduler
        let spy = SpyPerformer([.status(500), .status(200)])
        let scheduler = ManualScheduler()
        let seen = Recorder<(Int, String)>()
        let handle = spy.performRetryable(get("http://x"), scheduler: scheduler) { result, retry in
            seen.record((retry.attempt, outcome(result)))
            if retry.attempt == 1 { retry.retry(maxAttempts: 3, delay: .seconds(5)) }
        }
        #expect(scheduler.pendingCount == 1)

        // When the caller cancels
        handle.cancel()

        // Then the wait is gone and the cancellation is reported as attempt 2
        #expect(scheduler.pendingCount == 0)
        #expect(seen.all.map(\.0) == [1, 2])
        #expect(seen.all.map(\.1) == ["500", "cancelled"])
        #expect(spy.calls.count == 1)
    }

    @Test func aPolicyRetryWithNoDelayStillGoesThroughTheScheduler() {
        // Given a policy that retries at once, and a manual scheduler
        let spy = SpyPerformer([.status(500), .status(200)])
        let scheduler = ManualScheduler()
        let seen = Recorder<String>()
        let policy = RetryPolicy { attempt in attempt.number < 2 ? .retry : .stop }

        // When the callback follows the policy
        spy.performRetryable(get("http://x"), scheduler: scheduler) { result, retry in
            seen.record(outcome(result))
            retry.retry(following: policy)
        }
        let sentBeforeAdvance = spy.calls.count

        // Then the retry waited for the scheduler, with no delay
        #expect(sentBeforeAdvance == 1)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance()
        #expect(spy.calls.count == 2)
        #expect(seen.all == ["500", "200"])
    }

    @Test func thePolicyIsNotAskedOnceNoRetryCanGoOut() {
        // Given a policy that counts what it is asked, and a call that was cancelled during its wait
        let asked = Recorder<Int>()
        let policy = RetryPolicy { attempt in
            asked.record(attempt.number)
            return .retryAfter(.seconds(1))
        }
        let spy = SpyPerformer([.status(500), .status(200)])
        let answers = Recorder<Bool>()
        let handle = spy.performRetryable(get("http://x"), scheduler: ManualScheduler()) { _, retry in
            answers.record(retry.retry(following: policy))
        }

        // When the caller cancels, and the cancellation's callback follows the policy too
        handle.cancel()

        // Then the policy was asked about the first attempt only, and the cancellation could not retry
        #expect(asked.all == [1])
        #expect(answers.all == [true, false])
        #expect(spy.calls.count == 1)
    }
}
