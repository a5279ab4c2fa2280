import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// Redirects without a network: the decision URLSession waits for, the hop sent again as a
/// new task, and cancels that come before or after the decision.
struct TaskMachineRedirectTests {
    let t1 = FakeTask("t1")
    let t2 = FakeTask("t2")
    let next = urlRequest("/next", method: "POST")

    @Test func redirectAsksForADecisionAboutTheRequestAsItIs() {
        // Given a running request
        var machine = Machine.at(.running, task: t1)
        // When URLSession waits for a redirect decision
        let effects = machine.run(.redirected(t1))
        // Then the policy is to be asked about the first hop of the request
        #expect(effects == ["decide /start hop 0"])
        #expect(machine.phase.summary == "awaitingRedirectDecision(t1)")
    }

    @Test func followedRedirectIsHandedBackAndTheTaskRunsOn() {
        // Given a request waiting for a redirect decision
        var machine = Machine.at(.awaitingRedirectDecision, task: t1)
        // When the decision is to follow, and a second redirect comes
        let effects = machine.run(.decided(t1, .follow(next)))
        let second = machine.run(.redirected(t1))
        // Then the next request goes back to URLSession, and becomes the request as sent
        #expect(effects == ["answer /next"])
        #expect(machine.request.url?.path == "/next")
        #expect(second == ["decide /next hop 1"])
    }

    @Test func resentRedirectRunsANewTaskForTheSameRequest() {
        // Given a request waiting for a redirect decision
        var machine = Machine.at(.awaitingRedirectDecision, task: t1)
        // When the decision is to send the hop again as a new task, and that task is made
        let effects = machine.run(.decided(t1, .resend(next)))
        let phase = machine.phase.summary
        let start = machine.run(.started(t2))
        // Then the old task is forgotten and handed back nothing (it ends with the 3xx), the
        // new one is resumed, and the session is kept throughout
        #expect(effects == ["forget t1", "send /next for session", "answer nil"])
        #expect(phase == "admitted")
        #expect(start == ["resume t2"])
        #expect(machine.heldOwner == owner)
        // And the request completes from the new task, as sent the second time
        _ = machine.run(.received(t2, Data("done".utf8)))
        #expect(machine.run(.ended(t2, nil)) == ["complete \"done\" for POST /next", "release session"])
    }

    @Test func stoppedRedirectEndsWithTheRedirectItself() {
        // Given a request waiting for a redirect decision
        var machine = Machine.at(.awaitingRedirectDecision, task: t1)
        // When the decision is not to follow, and the 3xx arrives
        let effects = machine.run(.decided(t1, .stop))
        _ = machine.run(.received(t1, Data("moved".utf8)))
        let end = machine.run(.ended(t1, nil))
        // Then URLSession is handed nothing and the 3xx is the response
        #expect(effects == ["answer nil"])
        #expect(end == ["complete \"moved\" for GET /start", "release session"])
    }

    @Test func refusedRedirectIsHandedBackBeforeTheTaskIsCancelled() {
        // Given a request waiting for a redirect decision
        var machine = Machine.at(.awaitingRedirectDecision, task: t1)
        // When the redirect is refused
        let refused = FetchError(.redirectRefused, reason: "refused")
        let effects = machine.run(.decided(t1, .fail(refused)))
        // Then the decision goes back first, and only then is the task cancelled
        #expect(effects == ["answer nil", "complete redirectRefused", "release session", "cancel t1"])
    }

    @Test func cancelWhileTheDecisionIsPendingIsHeldBackUntilItIsHandedBack() {
        // Given a request waiting for a redirect decision
        var machine = Machine.at(.awaitingRedirectDecision, task: t1)
        // When it is cancelled (say, by its own policy), and then the policy says follow
        let cancel = machine.run(.failed(machine.error(.cancelled, "cancelled")))
        let decision = machine.run(.decided(t1, .follow(next)))
        // Then it completes at once but its task is not cancelled yet; the decision is
        // replaced by nothing, and only after it is handed back is the task cancelled
        #expect(cancel == ["complete cancelled", "release session"])
        #expect(decision == ["answer nil", "cancel t1"])
        #expect(machine.phase.summary == "finished")
        #expect(machine.request.url?.path == "/start")
    }

    @Test func cancelAfterTheDecisionCancelsTheTaskAtOnce() {
        // Given a request whose redirect decision was handed back
        var machine = Machine.at(.awaitingRedirectDecision, task: t1)
        _ = machine.run(.decided(t1, .follow(next)))
        // When it is cancelled
        let effects = machine.run(.failed(machine.error(.cancelled, "cancelled")))
        // Then its task is cancelled with it
        #expect(effects == ["complete cancelled", "release session", "cancel t1"])
    }

    @Test func redirectOfAFinishedRequestIsNeverAnswered() {
        // Given a request cancelled while running: its task's cancel is on its way
        var machine = Machine.at(.running, task: t1)
        _ = machine.run(.failed(machine.error(.cancelled, "cancelled")))
        // When URLSession asks for a redirect decision before the cancel lands
        let effects = machine.run(.redirected(t1))
        // Then no decision is handed back, which could cross the cancel: the cancel ends the task
        #expect(effects.isEmpty)
    }

    @Test func resentHopCancelledBeforeItsTaskStartsNeverRuns() {
        // Given a request whose redirect is being sent again as a new task
        var machine = Machine.at(.awaitingRedirectDecision, task: t1)
        _ = machine.run(.decided(t1, .resend(next)))
        // When it is cancelled before the new task is made, and then the task is made
        let cancel = machine.run(.failed(machine.error(.cancelled, "cancelled")))
        let start = machine.run(.started(t2))
        // Then it completes at once (the old task ends by itself), and the new task never runs
        #expect(cancel == ["complete cancelled", "release session"])
        #expect(start == ["forget t2", "cancel t2"])
    }

    @Test func decisionForAnotherTaskIsRefusedWithoutEffect() {
        // Given a request waiting for the redirect decision of t1
        var machine = Machine.at(.awaitingRedirectDecision, task: t1)
        // When t2, which is not its task, asks for and gets a decision
        let asked = machine.run(.redirected(t2))
        let decided = machine.run(.decided(t2, .follow(next)))
        // Then t2 is handed nothing, and t1 still waits
        #expect(asked == ["answer nil"])
        #expect(decided == ["answer nil"])
        #expect(machine.phase.summary == "awaitingRedirectDecision(t1)")
    }
}
