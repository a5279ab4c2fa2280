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

    @Test(.timeLimit(.minutes(1)))
    func onChangeMayWaitForAnotherThreadThatReadsTheCounter() {
        // Given an onChange that waits, synchronously, for another thread to read the counter
        let reader = Holder<ActivityCounter>()
        let seen = Recorder<String>()
        let counter = ActivityCounter { busy in
            let count = DispatchQueue(label: "reader").sync { reader.value?.activeCount ?? -1 }
            seen.record("\(busy) \(count)")
        }
        reader.value = counter
        let performer = SpyPerformer([.status(200)]).reportingActivity(to: counter)

        // When a call is made
        performNow(performer, get("http://x"))

        // Then the other thread could read it during both reports (the lock was not held)
        #expect(seen.all == ["true 1", "false 0"])
    }

    @Test func reportsAlternateWhenCallsRaceOnManyThreads() {
        // Given a counter over a spy that answers at once
        let changes = Recorder<Bool>()
        let counter = ActivityCounter { changes.record($0) }
        let performer = SpyPerformer(match: { _ in .status(200) }).reportingActivity(to: counter)

        // When 500 calls start and end on many threads at once
        DispatchQueue.concurrentPerform(iterations: 500) { _ in performNow(performer, get("http://x")) }

        // Then the reports alternate, starting busy and ending idle, and the counter is idle
        let reports = changes.all
        #expect(reports.first == true)
        #expect(reports.last == false)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0 != $1 })
        #expect(counter.activeCount == 0)
    }

    @Test func aCallStartedFromOnChangeIsCountedWithoutAnExtraReport() {
        // Given an onChange that makes one more call the first time the counter turns busy
        let holder = Holder<LayeredPerformer>()
        let changes = Recorder<Bool>()
        let counter = ActivityCounter { busy in
            changes.record(busy)
            if busy, changes.count == 1, let performer = holder.value { performNow(performer, get("http://x/nested")) }
        }
        let spy = SpyPerformer(match: { _ in .status(200) })
        holder.value = spy.reportingActivity(to: counter)

        // When a call is made
        performNow(spy.reportingActivity(to: counter), get("http://x/outer"))

        // Then both calls went out, and the counter turned busy once and idle once
        #expect(spy.calls.count == 2)
        #expect(changes.all == [true, false])
        #expect(counter.activeCount == 0)
    }
}

/// A value set after the closure that reads it was made.
final class Holder<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: Value?

    var value: Value? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
