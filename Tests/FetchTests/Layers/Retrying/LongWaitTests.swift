import Dispatch
import Testing
import Fetch
import FetchTesting
import TestSupport

/// Waits as long as a `Duration` can say, which large `maximumRetryAfter` or back-off
/// maximums let through, must neither trap nor run early.
@Suite struct LongWaitTests {
    @Test(arguments: [Duration.seconds(Int64.max), .seconds(Int64.max) * 4])
    func aJobDueFarAwayNeitherTrapsNorBlocksTheQueue(delay: Duration) async throws {
        // Given a serial queue's scheduler and a job due at Int64.max seconds, or past
        // what seconds in an Int64 can count (made by arithmetic)
        let scheduler = DispatchQueueScheduler(queue: DispatchQueue(label: "long-wait-test"))
        let ran = Recorder<String>()
        let handle = scheduler.schedule(after: delay) { ran.record("late") }

        // When a job with no delay is scheduled after it on the same queue and has run
        try await within("the job with no delay") {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                scheduler.schedule(after: .zero) {
                    ran.record("now")
                    continuation.resume()
                }
            }
        }
        handle.cancel()

        // Then the process is alive, the queue still works, and the long job has not run
        #expect(ran.all == ["now"])
    }

    @Test func aRetryAfterAsLongAsAllowedWaitsUntilCancelled() {
        // Given a policy that accepts any Retry-After, a real scheduler, and a 503 asking for forever
        var policy = RetryPolicy.constant(maxAttempts: 2, delay: .zero)
        policy.maximumRetryAfter = .seconds(Int64.max)
        let spy = SpyPerformer([.status(503, headers: ["Retry-After": "99999999999999999999999"]), .status(200)])
        let recorder = Recorder<Result<Response, any Error>>()
        let handle = spy.retrying(policy, scheduler: DispatchQueueScheduler())
            .perform(get("http://x")) { recorder.record($0) }
        let deliveredWhileWaiting = recorder.count

        // When the caller cancels the wait
        handle.cancel()

        // Then nothing was delivered or resent while waiting, and the caller got one cancellation
        #expect(deliveredWhileWaiting == 0)
        #expect(spy.calls.count == 1)
        #expect(outcome(recorder.single) == "cancelled")
    }

    @Test func aHugeBackoffMaximumGivesAUsableDelay() {
        // Given a back-off whose maximum is the longest Duration of whole seconds
        let backoff = Backoff.exponential(
            initial: .seconds(1), multiplier: 10, maximum: .seconds(Int64.max), jitter: .none)

        // When a late retry's delay is computed and split into components
        let delay = backoff.delay(beforeRetry: 400)

        // Then it is the maximum, and readable
        #expect(delay == .seconds(Int64.max))
        #expect(delay.components.seconds == Int64.max)
    }
}
