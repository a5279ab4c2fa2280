import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch
import TestSupport

/// Where a request's task is made: on the caller's thread when no task of any session is in
/// flight, on the session's control thread otherwise, so a caller never waits for a
/// URLSession work queue that another transfer keeps busy.
@Suite(.loopbackServers)
struct StartThreadTests {
    /// Holds a session's control thread busy until `release()`.
    final class HeldControl: Sendable {
        private let release = DispatchSemaphore(value: 0)

        init(_ session: Session) throws {
            let held = DispatchSemaphore(value: 0)
            session.control.async { [release] in
                held.signal()
                _ = release.wait(timeout: .now() + 60)  // (the test frees it long before)
            }
            try held.wait(within: standardBound, "the session's control thread")
        }

        func free() { release.signal() }
    }

    /// What a request performed while the session's control thread was held showed.
    struct Outcome: Sendable {
        /// The tasks registered when `perform` returned.
        let registeredAtReturn: Int
        /// Whether the call completed while the control thread was still held.
        let completedWhileHeld: Bool
        /// The status it completed with, or its error.
        let result: String
    }

    /// Performs a 204 request with `session`'s control thread held for up to `held` (freed
    /// as soon as the call completes), on a thread of its own
    /// (a task made on the caller's thread waits for URLSession's work queue, which another
    /// test may hold: that must never be a thread of the Swift concurrency pool).
    static func performWithControlHeld(_ session: Session, url: URL, held: Duration) async throws -> Outcome {
        try await within("the call made with the control thread held") {
            try await offThePool {
                let control = try HeldControl(session)
                let done = DispatchSemaphore(value: 0)
                let result = Locked("none")
                session.perform(BasicRequest(url: url)) { outcome in
                    result.withLock {
                        $0 =
                            switch outcome {
                            case .success(let response): "HTTP \(response.status)"
                            case .failure(let error): "\(error)"
                            }
                    }
                    done.signal()
                }
                let registered = session.delegate.allStates.count
                let completedWhileHeld =
                    done.wait(timeout: .now() + .milliseconds(Int(held.components.seconds * 1000))) == .success
                control.free()
                if !completedWhileHeld { _ = done.wait(timeout: .now() + 10) }
                return Outcome(
                    registeredAtReturn: registered, completedWhileHeld: completedWhileHeld,
                    result: result.withLock { $0 })
            }
        }
    }

    @Test func withNoTaskInFlightARequestStartsOnTheCallersThread() async throws {
        let servers = try LoopbackServers.require()
        // Given a session whose count of tasks in flight is its own and empty
        let session = Session(configuration: .init(), tasksInFlight: TasksInFlight())
        // When a request is performed while its control thread is held busy
        let outcome = try await Self.performWithControlHeld(
            session, url: servers.faults.url("/status?code=204"), held: .seconds(10))
        // Then its task was made and counted before `perform` returned, and the call
        // completed without the control thread
        #expect(outcome.registeredAtReturn == 1)
        #expect(outcome.completedWhileHeld)
        #expect(outcome.result == "HTTP 204")
        #expect(session.delegate.tasksInFlight.current == 0)
    }

    @Test func withATaskInFlightARequestStartsOnTheControlThread() async throws {
        let servers = try LoopbackServers.require()
        // Given a session whose count says another task is in flight
        let inFlight = TasksInFlight()
        inFlight.add()
        let session = Session(configuration: .init(), tasksInFlight: inFlight)
        // When a request is performed while its control thread is held busy
        let outcome = try await Self.performWithControlHeld(
            session, url: servers.faults.url("/status?code=204"), held: .seconds(1))
        // Then no task was made on the caller's thread: the call waited for the control
        // thread, and completed once it was free
        #expect(outcome.registeredAtReturn == 0)
        #expect(!outcome.completedWhileHeld)
        #expect(outcome.result == "HTTP 204")
        #expect(inFlight.current == 1)
    }

    @Test func aDelegateCountsATaskOnceUntilItIsForgottenOrEnds() async throws {
        // Given a delegate with a count of its own and two tasks that are never resumed
        let count = TasksInFlight()
        let delegate = SessionDelegate(tasksInFlight: count)
        let session = Session()
        let request = BasicRequest(url: URL(string: "http://127.0.0.1:9/")!)
        let urlRequest = try session.prepare(request, options: request.options)
        let state = TaskState(
            owner: session, request: request, urlRequest: urlRequest, deadline: nil, bodyFile: nil, kindHandler: nil
        ) { _ in }
        // (Tasks are made on a thread of their own: making one waits for URLSession's work queue.)
        let counts: [Int] = try await within("the delegate's counts") {
            try await offThePool {
                let first = session.urlSession.dataTask(with: urlRequest)
                let second = session.urlSession.dataTask(with: urlRequest)
                // When the first is registered twice and the second once
                delegate.register(first, state)
                delegate.register(first, state)
                delegate.register(second, state)
                let registered = count.current
                // and then the first is forgotten and URLSession reports the second ended
                delegate.unregister(first)
                let afterForgetting = count.current
                delegate.urlSession(session.urlSession, task: second, didCompleteWithError: nil)
                let afterEnding = count.current
                first.cancel()
                second.cancel()
                return [registered, afterForgetting, afterEnding]
            }
        }
        // Then each task counted once, until it left the table
        #expect(counts == [2, 1, 0])
    }
}
