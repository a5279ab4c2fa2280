import Foundation
import Testing
import Fetch
import FetchTesting

@Suite struct ActivityCounterTests {
    @Test func turnsBusyWithTheFirstCallAndIdleAfterTheLast() {
        // Given a counter over a spy holding two calls
        let changes = Recorder<Bool>()
        let counter = ActivityCounter { changes.record($0) }
        let spy = SpyPerformer([.hold, .hold])
        let performer = spy.reportingActivity(to: counter)

        // When two calls start, then end one by one
        performer.perform(get("http://x")) { _ in }
        performer.perform(get("http://x")) { _ in }
        let busyWhileBoth = (counter.isBusy, counter.activeCount)
        spy.pending[0].respond(.status(200))
        let afterFirst = (counter.isBusy, counter.activeCount)
        spy.pending[0].fail(FetchError(.timedOut, reason: "slow"))

        // Then it turned busy once and idle once
        #expect(busyWhileBoth == (true, 2))
        #expect(afterFirst == (true, 1))
        #expect(changes.all == [true, false])
        #expect(!counter.isBusy)
    }

    @Test func cancelledCallsAreCountedOut() {
        // Given a held call
        let counter = ActivityCounter()
        let handle = SpyPerformer([.hold]).reportingActivity(to: counter).perform(get("http://x")) { _ in }
        #expect(counter.activeCount == 1)

        // When it is cancelled
        handle.cancel()

        // Then the counter is idle again
        #expect(counter.activeCount == 0)
    }

    @Test func theReporterHearsEachCallOnceWithItsResult() {
        // Given a recording reporter
        final class Log: ActivityReporting {
            let events = Recorder<String>()
            func requestStarted(_ request: any Request) { events.record("start \(request.url.path)") }
            func requestEnded(_ request: any Request, result: Result<Response, any Error>) {
                events.record("end \(request.url.path) \(outcome(result))")
            }
        }
        let log = Log()

        // When a call succeeds and one fails
        let performer = SpyPerformer([.status(201), .failure(.timedOut)]).reportingActivity(to: log)
        performNow(performer, get("http://x/a"))
        performNow(performer, get("http://x/b"))

        // Then each start and end was reported once
        #expect(log.events.all == ["start /a", "end /a 201", "start /b", "end /b timedOut"])
    }

    @Test func callbackAndAsyncCallersAreCountedTheSame() async {
        // Given a counter
        let changes = Recorder<Bool>()
        let counter = ActivityCounter { changes.record($0) }
        let performer = SpyPerformer(match: { _ in .status(200) }).reportingActivity(to: counter)

        // When one call uses a callback and one async/await
        let callback = outcome(performNow(performer, get("http://x")))
        let async = await asyncOutcome(performer, get("http://x"))

        // Then both turned it busy then idle
        #expect(callback == async)
        #expect(changes.all == [true, false, true, false])
    }
}
