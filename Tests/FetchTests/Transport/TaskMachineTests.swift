import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// The life of one request without a network: starting, receiving, ending, failing.
/// Redirects are in TaskMachineRedirectTests.swift.
struct TaskMachineTests {
    let t1 = FakeTask("t1")
    let t2 = FakeTask("t2")

    @Test func startedTaskIsResumedAndCarriesTheRequest() {
        // Given an admitted request
        var machine = Machine.admitted()
        // When its first task is made
        let effects = machine.run(.started(t1))
        // Then the task is resumed and carries the request, and the session is kept
        #expect(effects == ["resume t1"])
        #expect(machine.phase.summary == "running(t1)")
        #expect(machine.heldOwner == owner)
    }

    @Test func taskMadeAfterTheRequestFinishedIsForgottenAndCancelled() {
        // Given a request cancelled while it waited for its first task
        var machine = Machine.admitted()
        let cancel = machine.run(.failed(machine.error(.cancelled, "cancelled")))
        // When the task is made after all
        let effects = machine.run(.started(t1))
        // Then it is never resumed: it is forgotten and cancelled at once, and completes nothing
        #expect(cancel == ["complete cancelled", "release session"])
        #expect(effects == ["forget t1", "cancel t1"])
        #expect(machine.phase.summary == "finished")
    }

    @Test func secondTaskWhileOneRunsIsCancelled() {
        // Given a running request
        var machine = Machine.at(.running, task: t1)
        // When another task is made for it
        let effects = machine.run(.started(t2))
        // Then the newcomer is cancelled and the first task goes on
        #expect(effects == ["forget t2", "cancel t2"])
        #expect(machine.phase.summary == "running(t1)")
    }

    @Test func bodyIsCollectedAndCompletesOnceWithTheRequestAsSent() {
        // Given a running request
        var machine = Machine.at(.running, task: t1)
        // When a response, two chunks and the end arrive
        let head = machine.run(.responded(t1, status: 200, expectedLength: 5))
        let chunks = machine.run(.received(t1, Data("abc".utf8))) + machine.run(.received(t1, Data("de".utf8)))
        let end = machine.run(.ended(t1, nil))
        // Then it completes once with the whole body, gives the session back, and drops the body
        #expect(head.isEmpty && chunks.isEmpty)
        #expect(end == ["complete \"abcde\" for GET /start", "release session"])
        #expect(machine.phase.summary == "finished")
        #expect(machine.body.isEmpty)
        #expect(machine.heldOwner == nil)
    }

    @Test func errorOfTheTaskCompletesAsANamedError() {
        // Given a running request
        var machine = Machine.at(.running, task: t1)
        // When its task ends with URLSession's timeout
        let effects = machine.run(.ended(t1, URLError(.timedOut)))
        // Then it completes with timedOut, and the task is not cancelled (it has ended)
        #expect(effects == ["complete timedOut", "release session"])
    }

    @Test func bodyOverTheLimitFailsAndCancelsTheTask() {
        // Given a running request with a body limit of 10 bytes, 6 of them received
        var machine = Machine.at(.running, task: t1)
        _ = machine.run(.received(t1, Data(count: 6)))
        // When 5 more arrive, then more still
        let effects = machine.run(.received(t1, Data(count: 5)))
        let later = machine.run(.received(t1, Data(count: 5)))
        // Then it fails with bodyTooLarge and cancels its task; later bytes are dropped
        #expect(effects == ["complete bodyTooLarge", "release session", "cancel t1"])
        #expect(later.isEmpty)
        #expect(machine.body.isEmpty)
    }

    @Test func announcedLengthOverTheLimitFailsBeforeAnyByte() {
        // Given a running request with a body limit of 10 bytes
        var machine = Machine.at(.running, task: t1)
        // When a response announces 11 bytes
        let effects = machine.run(.responded(t1, status: 200, expectedLength: 11))
        // Then it fails with bodyTooLarge at once
        #expect(effects == ["complete bodyTooLarge", "release session", "cancel t1"])
    }

    @Test(arguments: [("HEAD", 200), ("GET", 204), ("GET", 304)])
    func responsesWithoutABodyIgnoreTheirLength(method: String, status: Int) {
        // Given a running request with a body limit of 10 bytes
        var machine = Machine.admitted(method: method)
        _ = machine.run(.started(t1))
        // When a response that has no body announces 1,000 bytes, and the task ends
        let head = machine.run(.responded(t1, status: status, expectedLength: 1000))
        let end = machine.run(.ended(t1, nil))
        // Then the length is not held against the limit
        #expect(head.isEmpty)
        #expect(end == ["complete \"\" for \(method) /start", "release session"])
    }

    @Test func callbacksOfAnotherTaskAreIgnored() {
        // Given a request running on t1
        var machine = Machine.at(.running, task: t1)
        _ = machine.run(.received(t1, Data("ok".utf8)))
        // When t2 (no longer, or never, its task) calls in
        let stray =
            machine.run(.responded(t2, status: 200, expectedLength: 100))
            + machine.run(.received(t2, Data("stray".utf8))) + machine.run(.ended(t2, nil))
        let end = machine.run(.ended(t1, nil))
        // Then nothing changes: the request completes from t1 alone
        #expect(stray.isEmpty)
        #expect(end == ["complete \"ok\" for GET /start", "release session"])
    }

    @Test(arguments: Stage.allCases, [FetchError.Code.cancelled, .deadlineExceeded])
    func failingInEveryPhase(stage: Stage, code: FetchError.Code) {
        // Given a request in `stage`
        var machine = Machine.at(stage, task: t1)
        // When it is cancelled, or its deadline passes
        let effects = machine.run(.failed(machine.error(code, "\(code)")))
        // Then a live request completes once with that error and gives the session back; a
        // running task is cancelled at once, one waiting for a redirect decision only later;
        // a finished request does nothing
        let expected: [String] =
            switch stage {
            case .admitted, .awaitingRedirectDecision: ["complete \(code.rawValue)", "release session"]
            case .running: ["complete \(code.rawValue)", "release session", "cancel t1"]
            case .cancelAfterRedirectDecision, .finished: []
            }
        #expect(effects == expected)
        #expect(machine.isFinished)
        #expect(machine.heldOwner == nil)
        let phase =
            stage == .awaitingRedirectDecision || stage == .cancelAfterRedirectDecision
            ? "cancelAfterRedirectDecision(t1)" : "finished"
        #expect(machine.phase.summary == phase)
    }

    @Test(arguments: Stage.allCases)
    func ownerIsKeptWhileTheRequestIsLive(stage: Stage) {
        // Given a request in `stage`
        let machine = Machine.at(stage, task: t1)
        // When it is asked for the owner it keeps alive
        // Then a live request keeps the session, a finished one has given it back
        let live = [Stage.admitted, .running, .awaitingRedirectDecision].contains(stage)
        #expect(machine.heldOwner == (live ? owner : nil))
        #expect(machine.isFinished == !live)
    }

    @Test func lateEventsAfterTheEndAreIgnored() {
        // Given a request that completed
        var machine = Machine.at(.finished, task: t1)
        // When every kind of event still arrives
        let late =
            machine.run(.responded(t1, status: 200, expectedLength: 5)) + machine.run(.received(t1, Data("x".utf8)))
            + machine.run(.redirected(t1)) + machine.run(.decided(t1, .follow(urlRequest("/next"))))
            + machine.run(.ended(t1, nil)) + machine.run(.ended(t1, URLError(.cancelled)))
            + machine.run(.failed(machine.error(.cancelled, "cancelled")))
        // Then none completes again, answers a redirect, or cancels anything
        #expect(late.isEmpty)
        #expect(machine.phase.summary == "finished")
        // And only a task made after the end gets an answer: it is cancelled
        #expect(machine.run(.started(t2)) == ["forget t2", "cancel t2"])
    }
}
