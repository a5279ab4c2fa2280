import Foundation
import Testing
import Fetch
import FetchTesting
import TestSupport

@Suite struct RetryingPerformerTests {
    private let policy = RetryPolicy.exponential(maxAttempts: 3, initial: .seconds(1), jitter: .none)

    @Test func retriesUntilSuccessWaitingThroughTheScheduler() {
        // Given two 503s then a 200, and an immediate scheduler
        let spy = SpyPerformer([.status(503), .failure(.timedOut), .status(200)])
        let scheduler = ImmediateScheduler()

        // When a GET is performed
        let result = performNow(spy.retrying(policy, scheduler: scheduler), get("http://x"))

        // Then the caller gets the 200 once, after three attempts and two back-off waits
        #expect(outcome(result) == "200")
        #expect(spy.calls.count == 3)
        #expect(scheduler.delays == [.seconds(1), .seconds(2)])
    }

    @Test func deliversTheLastResultWhenAttemptsRunOut() {
        // Given only 503s
        let spy = SpyPerformer(match: { _ in .status(503) })

        // When a GET is performed
        let result = performNow(spy.retrying(policy, scheduler: ImmediateScheduler()), get("http://x"))

        // Then the third 503 is delivered
        #expect(outcome(result) == "503")
        #expect(spy.calls.count == 3)
    }

    @Test func aPostIsNotRetriedByDefault() {
        // Given a failing POST
        let spy = SpyPerformer(match: { _ in .failure(.connectionLost) })
        let post = BasicRequest(url: URL(string: "http://x")!, method: .post)

        // When it is performed
        let result = performNow(spy.retrying(policy, scheduler: ImmediateScheduler()), post)

        // Then it was sent once
        #expect(outcome(result) == "connectionLost")
        #expect(spy.calls.count == 1)
    }

    @Test func theWaitHappensOnlyWhenTheSchedulerAdvances() {
        // Given a manual scheduler and a 503 followed by a 200
        let spy = SpyPerformer([.status(503), .status(200)])
        let scheduler = ManualScheduler()
        let recorder = Recorder<Result<Response, any Error>>()

        // When a GET is performed
        spy.retrying(policy, scheduler: scheduler).perform(get("http://x")) { recorder.record($0) }

        // Then nothing is delivered until the clock passes the delay
        #expect(recorder.count == 0)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .milliseconds(999))
        #expect(recorder.count == 0)
        scheduler.advance(by: .milliseconds(1))
        #expect(outcome(recorder.single) == "200")
        #expect(spy.calls.count == 2)
    }

    @Test func cancellingDuringTheWaitCancelsItAndTheRetries() {
        // Given a call waiting to be retried
        let spy = SpyPerformer([.status(503), .status(200)])
        let scheduler = ManualScheduler()
        let recorder = Recorder<Result<Response, any Error>>()
        let handle = spy.retrying(policy, scheduler: scheduler).perform(get("http://x")) { recorder.record($0) }

        // When the caller cancels, then time passes
        handle.cancel()
        scheduler.runAll()

        // Then the wait is gone, no retry was sent, and the caller got one cancellation
        #expect(outcome(recorder.single) == "cancelled")
        #expect(scheduler.pendingCount == 0)
        #expect(spy.calls.count == 1)
    }

    @Test func aHandleKeptAfterTheEndDoesNotKeepTheCompletion() {
        // Given a call retried once and answered, whose handle the caller keeps
        let spy = SpyPerformer([.status(503), .status(200)])
        let retrying = spy.retrying(policy, scheduler: ImmediateScheduler())

        // When it has completed
        let (handle, canary) = callHoldingACanary { done in
            retrying.perform(get("http://x")) { _ in done() }
        }

        // Then its completion, and what the completion holds, are freed; cancelling does nothing
        #expect(spy.calls.count == 2)
        #expect(canary.isFreed)
        handle.cancel()
        #expect(spy.calls.count == 2)
    }

    @Test func aDroppedHandleStillLetsTheWaitRunAndComplete() {
        // Given a call waiting to be retried, whose handle the caller dropped
        let spy = SpyPerformer([.status(503), .status(200)])
        let scheduler = ManualScheduler()
        let recorder = Recorder<Result<Response, any Error>>()
        _ = spy.retrying(policy, scheduler: scheduler).perform(get("http://x")) { recorder.record($0) }
        #expect(recorder.count == 0)

        // When the wait passes
        scheduler.runAll()

        // Then the retry went out and the caller got its answer
        #expect(spy.calls.count == 2)
        #expect(outcome(recorder.single) == "200")
    }

    @Test func cancellingDuringAnAttemptCancelsItAndStops() {
        // Given a retry in flight (the first attempt got 503, the second is held)
        let spy = SpyPerformer([.status(503), .hold])
        let recorder = Recorder<Result<Response, any Error>>()
        let handle = spy.retrying(policy, scheduler: ImmediateScheduler()).perform(get("http://x")) {
            recorder.record($0)
        }
        #expect(spy.pending.count == 1)

        // When the caller cancels
        handle.cancel()

        // Then the held attempt is cancelled, no third attempt goes out, and the caller got one cancellation
        #expect(spy.pending.isEmpty)
        #expect(spy.calls.count == 2)
        #expect(outcome(recorder.single) == "cancelled")
    }

    @Test func aBudgetSharedByTwoPerformersStopsRetryStorms() {
        // Given one policy whose budget pays for a single retry, used by two performers
        var policy = self.policy
        policy.budget = RetryBudget(ratio: 0, reserve: 1)
        let first = SpyPerformer(match: { _ in .status(503) })
        let second = SpyPerformer(match: { _ in .status(503) })

        // When each performs a failing GET
        let firstResult = performNow(first.retrying(policy, scheduler: ImmediateScheduler()), get("http://x"))
        let secondResult = performNow(second.retrying(policy, scheduler: ImmediateScheduler()), get("http://x"))

        // Then the first retried once (the budget), the second not at all
        #expect(outcome(firstResult) == "503")
        #expect(outcome(secondResult) == "503")
        #expect(first.calls.count == 2)
        #expect(second.calls.count == 1)
        #expect(policy.budget?.balance == 0)
    }

    @Test func theBudgetRefillsByItsRatioUpToItsReserve() {
        // Given a budget of 10% with a reserve of 2, and a performer that always gets 503
        let budget = RetryBudget(ratio: 0.1, reserve: 2)
        var policy = RetryPolicy.constant(maxAttempts: 2, delay: .zero)
        policy.budget = budget
        let spy = SpyPerformer(match: { _ in .status(503) })
        let performer = spy.retrying(policy, scheduler: ImmediateScheduler())

        // When 30 calls are made
        for _ in 0..<30 { performNow(performer, get("http://x")) }

        // Then at most reserve + 10% of the calls were retried
        let retries = spy.calls.count - 30
        #expect(retries <= 2 + 3)
        #expect(retries >= 4)
    }

    @Test func aCustomPolicyDecidesAlone() {
        // Given a policy that retries at once while the attempt number is below 4, whatever happened
        let spy = SpyPerformer(match: { _ in .status(404) })
        let custom = RetryPolicy { attempt in attempt.number < 4 ? .retry : .stop }

        // When a POST is performed
        let result = performNow(
            spy.retrying(custom, scheduler: ManualScheduler()),
            BasicRequest(url: URL(string: "http://x")!, method: .post))

        // Then it went out four times without waiting
        #expect(outcome(result) == "404")
        #expect(spy.calls.count == 4)
    }

    @Test func callbackAndAsyncCallersSeeTheSame() async {
        // Given identical stacks for each caller
        func stack() -> LayeredPerformer {
            SpyPerformer([.status(503), .failure(.connectionLost), .status(204)]).retrying(
                policy, scheduler: ImmediateScheduler())
        }

        // When one is called with a callback and one with async/await
        let callback = outcome(performNow(stack(), get("http://x")))
        let async = await asyncOutcome(stack(), get("http://x"))

        // Then both get the 204
        #expect(callback == "204")
        #expect(async == callback)
    }

    @Test func completionRunsOnceWhenCancelRacesTheAnswer() async {
        // Given many held calls through the retry layer
        let spy = SpyPerformer(match: { _ in .hold })
        let performer = spy.retrying(policy, scheduler: ImmediateScheduler())
        let recorders = (0..<200).map { _ in Recorder<Result<Response, any Error>>() }
        let handles = recorders.map { recorder in performer.perform(get("http://x")) { recorder.record($0) } }
        let pending = spy.pending

        // When each is answered and cancelled at the same time on different threads
        DispatchQueue.concurrentPerform(iterations: handles.count * 2) { index in
            if index % 2 == 0 { pending[index / 2].respond(.status(200)) } else { handles[index / 2].cancel() }
        }

        // Then every completion ran exactly once
        #expect(recorders.allSatisfy { $0.count == 1 })
    }

    @Test func cancellingTheCallersTaskCancelsThePendingWait() async throws {
        // Given an async caller whose call waits for a retry on a manual scheduler
        // (the spy answers the first attempt before the signal fires, so the wait is queued by then)
        let spy = SpyPerformer([.status(503), .status(200)])
        let (signal, started) = StartedSignal.over(spy)
        let scheduler = ManualScheduler()
        let performer = signal.retrying(policy, scheduler: scheduler)
        let task = Task { await asyncOutcome(performer, get("http://x")) }
        _ = try await started.next(within: standardBound, "the call reaching the spy")
        #expect(scheduler.pendingCount == 1)

        // When the task is cancelled
        task.cancel()
        let result = try await task.value(within: standardBound)

        // Then the caller got a cancellation, the wait is gone, and nothing more was sent
        #expect(result == "cancelled")
        #expect(scheduler.pendingCount == 0)
        #expect(spy.calls.count == 1)
    }

    @Test func retryAfterOnA503SetsTheWait() {
        // Given a 503 asking for 7 seconds (the back-off would wait 1), then a 200, on a manual scheduler
        let spy = SpyPerformer([.status(503, headers: ["Retry-After": "7"]), .status(200)])
        let scheduler = ManualScheduler()
        let recorder = Recorder<Result<Response, any Error>>()

        // When a GET is performed and the clock moves to just before 7 seconds, then to 7
        spy.retrying(policy, scheduler: scheduler).perform(get("http://x")) { recorder.record($0) }
        scheduler.advance(by: .milliseconds(6_999))
        let sentBefore = spy.calls.count
        let deliveredBefore = recorder.count
        scheduler.advance(by: .milliseconds(1))

        // Then the retry went out only at 7 seconds, and its 200 was delivered
        #expect(sentBefore == 1)
        #expect(deliveredBefore == 0)
        #expect(spy.calls.count == 2)
        #expect(outcome(recorder.single) == "200")
    }

    @Test func aStatusTurnedIntoAnErrorBelowIsRetried() {
        // Given a status verifier below the retry layer, so a 503 (asking for 3 seconds) arrives as a FetchError
        let spy = SpyPerformer([.status(503, headers: ["Retry-After": "3"]), .status(200)])
        let scheduler = ImmediateScheduler()
        let performer = spy.enhanced(by: StatusVerifier(200..<300)).retrying(policy, scheduler: scheduler)

        // When a GET is performed
        let result = performNow(performer, get("http://x"))

        // Then it was retried after the Retry-After read from the error's response
        #expect(outcome(result) == "200")
        #expect(spy.calls.count == 2)
        #expect(scheduler.delays == [.seconds(3)])
    }

    @Test func cancellingAsksThePolicyNothingAndSpendsNoBudget() {
        // Given a policy that always asks to retry in 1 second, counts what it is asked and
        // shares a budget of 5 retries; a call waiting for its second attempt
        let asked = Recorder<Int>()
        let budget = RetryBudget(ratio: 0, reserve: 5)
        let policy = RetryPolicy(budget: budget) { attempt in
            asked.record(attempt.number)
            return .retryAfter(.seconds(1))
        }
        let spy = SpyPerformer([.status(503), .status(200)])
        let scheduler = ManualScheduler()
        let recorder = Recorder<Result<Response, any Error>>()
        let handle = spy.retrying(policy, scheduler: scheduler).perform(get("http://x")) { recorder.record($0) }

        // When the caller cancels, then time passes
        handle.cancel()
        scheduler.runAll()

        // Then the policy was asked about the first attempt only, one retry was paid for,
        // and the caller got one cancellation
        #expect(asked.all == [1])
        #expect(budget.balance == 4)
        #expect(outcome(recorder.single) == "cancelled")
        #expect(spy.calls.count == 1)
    }

    @Test func anAttemptAnsweredLaterIsJudgedByThePolicyThen() {
        // Given a retry layer over held calls: a 503 then a 200, answered by the test
        let spy = SpyPerformer([.hold, .hold])
        let scheduler = ImmediateScheduler()
        let recorder = Recorder<Result<Response, any Error>>()
        spy.retrying(policy, scheduler: scheduler).perform(get("http://x")) { recorder.record($0) }

        // When the first attempt is answered with a 503, then the second with a 200
        spy.pending.first?.respond(.status(503))
        let deliveredAfterFirst = recorder.count
        let pendingAfterFirst = spy.pending.count
        spy.pending.first?.respond(.status(200))

        // Then the 503 was retried after the back-off and only the 200 was delivered
        #expect(deliveredAfterFirst == 0)
        #expect(pendingAfterFirst == 1)
        #expect(scheduler.delays == [.seconds(1)])
        #expect(outcome(recorder.single) == "200")
        #expect(spy.calls.count == 2)
    }
}
