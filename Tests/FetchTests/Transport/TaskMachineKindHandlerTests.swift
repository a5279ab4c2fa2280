import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// A request whose body goes to a kindHandler (a download's file, a stream's reader) rather
/// than into memory: the machine hands it on through effects, and starts over when asked.
struct TaskMachineKindHandlerTests {
    let t1 = FakeTask("t1")
    let t2 = FakeTask("t2")
    let file = FakeKindHandler("file")

    @Test func headAndBytesGoToTheKindHandlerAndNothingIsKept() {
        // Given a running request whose body goes to a kindHandler
        var machine = Machine.at(.running, task: t1, kindHandler: file)
        // When a head larger than any memory limit, two chunks and the end arrive
        let head = machine.run(.responded(t1, status: 200, expectedLength: 1 << 40))
        let chunks = machine.run(.received(t1, Data("abc".utf8))) + machine.run(.received(t1, Data("de".utf8)))
        let end = machine.run(.ended(t1, nil))
        // Then the kindHandler gets each, in order, and the request completes with no body in memory
        #expect(head == ["open file"])
        #expect(chunks == ["write 3 to file", "write 2 to file"])
        #expect(end == ["complete \"\" for GET /start", "release session"])
        #expect(machine.body.isEmpty)
    }

    @Test func aDeclinedBodyIsKeptInMemoryUpToTheErrorBodyLimit() {
        // Given a running request whose kindHandler declines the body of a 503
        var machine = Machine.at(.running, task: t1, kindHandler: file)
        _ = machine.run(.responded(t1, status: 503, expectedLength: -1))
        let declined = machine.run(.declined(t1))
        // When more than the error body limit arrives, then the task ends
        let chunks =
            machine.run(.received(t1, Data(count: Response.errorBodyLimit)))
            + machine.run(.received(t1, Data(count: 5)))
        let kept = machine.body.count
        let end = machine.run(.ended(t1, nil))
        // Then nothing reaches the kindHandler, and the request completes with the limit's worth
        #expect(declined.isEmpty && chunks.isEmpty)
        #expect(kept == Response.errorBodyLimit)
        #expect(end.first?.hasPrefix("complete") == true)
        // And the next response's body goes to the kindHandler again
        var next = Machine.at(.running, task: t1, kindHandler: file)
        _ = next.run(.responded(t1, status: 503, expectedLength: -1))
        _ = next.run(.declined(t1))
        _ = next.run(.responded(t1, status: 200, expectedLength: 3))
        #expect(next.run(.received(t1, Data("abc".utf8))) == ["write 3 to file"])
        #expect(next.body.isEmpty)
    }

    @Test func bytesOfAnotherTaskOrAfterTheEndAreNotHandedOn() {
        // Given a request that finished after its task was cancelled
        var machine = Machine.at(.running, task: t1, kindHandler: file)
        _ = machine.run(.failed(FetchError.cancelled()))
        // When bytes still arrive, from its task and from another
        let late = machine.run(.received(t1, Data("abc".utf8))) + machine.run(.received(t2, Data("x".utf8)))
        let head = machine.run(.responded(t1, status: 200, expectedLength: 3))
        // Then nothing reaches the kindHandler
        #expect(late.isEmpty && head.isEmpty)
    }

    @Test func startOverSendsTheRequestAgainInANewTask() {
        // Given a running request that followed a redirect
        var machine = Machine.at(.running, task: t1, kindHandler: file)
        _ = machine.run(.redirected(t1))
        _ = machine.run(.decided(t1, .follow(urlRequest("/moved"))))
        // When the kindHandler asks to start over from the first byte
        let effects = machine.run(.startOver(t1, urlRequest("/start")))
        // Then the task is dropped and cancelled, and the request is sent again, as new
        #expect(effects == ["forget t1", "cancel t1", "send /start for session"])
        #expect(machine.phase.summary == "admitted")
        #expect(machine.hops == 0)
        #expect(machine.heldOwner == owner)
        // And the new task carries it
        #expect(machine.run(.started(t2)) == ["resume t2"])
        #expect(machine.run(.responded(t2, status: 200, expectedLength: 3)) == ["open file"])
    }

    @Test(arguments: [Stage.admitted, .awaitingRedirectDecision, .cancelAfterRedirectDecision, .finished])
    func startOverOutsideTheRunningPhaseChangesNothing(stage: Stage) {
        // Given a request that is not running t1
        var machine = Machine.at(stage, task: t1, kindHandler: file)
        let before = machine.phase.summary
        // When a start-over for t1 comes
        let effects = machine.run(.startOver(t1, urlRequest("/start")))
        // Then nothing happens
        #expect(effects.isEmpty)
        #expect(machine.phase.summary == before)
    }

    @Test func startOverOfATaskThatNoLongerCarriesTheRequestIsIgnored() {
        // Given a request running t2
        var machine = Machine.at(.admitted, task: t1, kindHandler: file)
        _ = machine.run(.started(t2))
        // When t1 asks to start over
        // Then nothing happens
        #expect(machine.run(.startOver(t1, urlRequest("/start"))).isEmpty)
        #expect(machine.phase.summary == "running(t2)")
    }

    @Test(arguments: [nil, FakeKindHandler("file")])
    func sentBytesAreReportedWhileTheTaskRuns(kindHandler: FakeKindHandler?) {
        // Given a running request
        var machine = Machine.at(.running, task: t1, kindHandler: kindHandler)
        // When its task reports body bytes sent, then it finishes and reports more
        let running = machine.run(.sent(t1, total: 3, expected: 10))
        _ = machine.run(.ended(t1, nil))
        let finished = machine.run(.sent(t1, total: 10, expected: 10))
        // Then only the report while it ran is passed on
        #expect(running == ["sent 3 of 10"])
        #expect(finished.isEmpty)
    }

    @Test(arguments: Stage.allCases)
    func aFailureInEveryPhaseCompletesOnceAndHandsNothingOn(stage: Stage) {
        // Given a request whose body goes to a kindHandler, in every phase
        var machine = Machine.at(stage, task: t1, kindHandler: file)
        let live = !machine.isFinished
        // When a write fails it (the kindHandler's error), then bytes arrive
        let failed = machine.run(.failed(FetchError(.file, reason: "disk full")))
        let late = machine.run(.received(t1, Data("abc".utf8)))
        // Then it completes with that error once, only from a live phase, and nothing more is written
        #expect(failed.filter { $0 == "complete file" }.count == (live ? 1 : 0))
        #expect(late.isEmpty)
        #expect(machine.isFinished)
    }
}
