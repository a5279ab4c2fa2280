import Testing
import Fetch
import FetchTesting

struct ImmediateSchedulerTests {
    @Test func runsWorkAtOnceAndRecordsTheDelays() {
        // Given an immediate scheduler
        let scheduler = ImmediateScheduler()
        let ran = Captured<Int>()
        // When two jobs are scheduled with delays
        scheduler.schedule(after: .seconds(2)) { ran.record(1) }
        scheduler.schedule(after: .milliseconds(500)) { ran.record(2) }
        // Then both ran before schedule returned, and the delays are recorded in order
        #expect(ran.all == [1, 2])
        #expect(scheduler.delays == [.seconds(2), .milliseconds(500)])
    }
}

struct ManualSchedulerTests {
    @Test func nothingRunsUntilTheClockMoves() {
        // Given a job scheduled in one second
        let scheduler = ManualScheduler()
        let ran = Captured<Int>()
        scheduler.schedule(after: .seconds(1)) { ran.record(1) }
        // When the clock moves by less
        scheduler.advance(by: .milliseconds(999))
        // Then it has not run; once the clock reaches it, it runs
        #expect(ran.count == 0)
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .milliseconds(1))
        #expect(ran.all == [1])
        #expect(scheduler.pendingCount == 0)
        #expect(scheduler.now == .seconds(1))
    }

    @Test func jobsRunInDueOrderThenInTheOrderScheduled() {
        // Given jobs scheduled out of order, two due at the same time
        let scheduler = ManualScheduler()
        let ran = Captured<String>()
        scheduler.schedule(after: .seconds(3)) { ran.record("c") }
        scheduler.schedule(after: .seconds(1)) { ran.record("a1") }
        scheduler.schedule(after: .seconds(1)) { ran.record("a2") }
        scheduler.schedule(after: .seconds(2)) { ran.record("b") }
        // When the clock moves past them all
        scheduler.advance(by: .seconds(10))
        // Then they ran by due time, ties in scheduling order
        #expect(ran.all == ["a1", "a2", "b", "c"])
        #expect(scheduler.now == .seconds(10))
    }

    @Test func jobsScheduledWhileAdvancingRunIfDue() {
        // Given a job that schedules another one second later
        let scheduler = ManualScheduler()
        let ran = Captured<String>()
        scheduler.schedule(after: .seconds(1)) {
            ran.record("first")
            scheduler.schedule(after: .seconds(1)) { ran.record("second") }
        }
        // When the clock moves by three seconds in one step
        scheduler.advance(by: .seconds(3))
        // Then both ran, the second at its own due time
        #expect(ran.all == ["first", "second"])
    }

    @Test func cancellingRemovesTheJob() {
        // Given two jobs
        let scheduler = ManualScheduler()
        let ran = Captured<Int>()
        let first = scheduler.schedule(after: .seconds(1)) { ran.record(1) }
        scheduler.schedule(after: .seconds(2)) { ran.record(2) }
        // When the first is cancelled
        first.cancel()
        // Then it is gone and never runs
        #expect(scheduler.pendingCount == 1)
        scheduler.runAll()
        #expect(ran.all == [2])
    }

    @Test func runAllRunsEverythingAndMovesTheClock() {
        // Given jobs far in the future
        let scheduler = ManualScheduler()
        let ran = Captured<Int>()
        scheduler.schedule(after: .seconds(60)) { ran.record(60) }
        scheduler.schedule(after: .seconds(5)) { ran.record(5) }
        // When everything is run
        scheduler.runAll()
        // Then all ran in order, and the clock stands at the last
        #expect(ran.all == [5, 60])
        #expect(scheduler.now == .seconds(60))
        #expect(scheduler.pendingCount == 0)
    }

    @Test func advancingByZeroRunsJobsDueNow() {
        // Given a job with no delay
        let scheduler = ManualScheduler()
        let ran = Captured<Int>()
        scheduler.schedule(after: .zero) { ran.record(0) }
        #expect(ran.count == 0)
        // When advanced by nothing
        scheduler.advance()
        // Then it ran
        #expect(ran.all == [0])
    }
}
