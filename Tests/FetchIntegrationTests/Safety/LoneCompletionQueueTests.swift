import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// Where a completion runs: on the session's lone-completion queue when its request ended while no other
/// task was in flight, on the completion queue otherwise, and never queued behind another.
@Suite(.loopbackServers)
struct LoneCompletionQueueTests {
    /// Where one completion ran.
    struct Place: Sendable, Equatable {
        var onLane = false
        var onConfiguredQueue = false
        var result = "none"
    }

    /// A marker for a configured completion queue.
    static let configuredKey = DispatchSpecificKey<Bool>()

    /// The place where the completion of a GET of `url` on `session` ran, performed on a thread
    /// of its own (making a task waits for URLSession's work queue, which must never tie up a
    /// Swift concurrency thread); `then` runs inside the completion first.
    static func place(
        of url: URL, on session: Session, then: @escaping @Sendable () -> String = { "" }
    ) async -> Place {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                session.perform(BasicRequest(url: url)) { outcome in
                    var place = Place(
                        onLane: DispatchQueue.getSpecific(key: LoneCompletionQueue.key) == true,
                        onConfiguredQueue: DispatchQueue.getSpecific(key: configuredKey) == true)
                    let status = (try? outcome.get()).map { "HTTP \($0.status)" } ?? "failed"
                    place.result = status + then()
                    continuation.resume(returning: place)
                }
            }
        }
    }

    @Test func aLoneCallCompletesOnTheSoloLane() async throws {
        let servers = try LoopbackServers.require()
        // Given a session whose count of tasks in flight is its own and empty
        let session = Session(configuration: .init(), tasksInFlight: TasksInFlight())
        // When a call is performed alone
        let place = await Self.place(of: servers.faults.url("/status?code=204"), on: session)
        // Then its completion ran on the session's lone-completion queue
        #expect(place == Place(onLane: true, result: "HTTP 204"))
    }

    @Test func withAnotherTaskInFlightTheCompletionRunsOnTheCompletionQueue() async throws {
        let servers = try LoopbackServers.require()
        // Given a session whose count says another task is in flight
        let inFlight = TasksInFlight()
        inFlight.add()
        let session = Session(configuration: .init(), tasksInFlight: inFlight)
        // When a call is performed
        let place = await Self.place(of: servers.faults.url("/status?code=204"), on: session)
        // Then its completion ran on the concurrent completion queue, not the lane
        #expect(place == Place(onLane: false, result: "HTTP 204"))
    }

    @Test func aCompletionThatWaitsForAnotherCallOfTheSameSessionIsNotQueuedBehindIt() async throws {
        let servers = try LoopbackServers.require()
        // Given a lone call whose completion (on the lane) performs a second call of the same
        // session and waits for its completion
        let session = Session(configuration: .init(), tasksInFlight: TasksInFlight())
        let url = servers.faults.url("/status?code=204")
        let place = await Self.place(of: url, on: session) {
            let done = DispatchSemaphore(value: 0)
            let second = Locked(Place())
            session.perform(BasicRequest(url: url)) { outcome in
                second.withLock {
                    $0.onLane = DispatchQueue.getSpecific(key: LoneCompletionQueue.key) == true
                    $0.result = (try? outcome.get()).map { "HTTP \($0.status)" } ?? "failed"
                }
                done.signal()
            }
            // When the first completion waits (it would wait for ever behind itself)
            guard done.wait(timeout: .now() + 10) == .success else { return ", second: not completed in 10 s" }
            let seen = second.withLock { $0 }
            return ", second: \(seen.result) on the lane: \(seen.onLane)"
        }
        // Then the second call completed meanwhile, off the busy lane
        #expect(place == Place(onLane: true, result: "HTTP 204, second: HTTP 204 on the lane: false"))
    }

    @Test func aConfiguredCompletionQueueTakesEveryCompletion() async throws {
        let servers = try LoopbackServers.require()
        // Given a session with a completion queue of the caller's
        let queue = DispatchQueue(label: "LoneCompletionQueueTests.configured", attributes: .concurrent)
        queue.setSpecific(key: Self.configuredKey, value: true)
        var configuration = Session.Configuration()
        configuration.completionQueue = queue
        let session = Session(configuration: configuration, tasksInFlight: TasksInFlight())
        // When a call is performed alone
        let place = await Self.place(of: servers.faults.url("/status?code=204"), on: session)
        // Then its completion ran on that queue, and the session has no lane
        #expect(place == Place(onConfiguredQueue: true, result: "HTTP 204"))
        #expect(session.loneCompletionQueue == nil)
    }
}
