import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport

/// Many requests from many threads, some cancelled at random moments: every completion is
/// called exactly once and none hangs.
@Suite(.loopbackServers)
struct ConcurrencyTests {
    /// What each request's completion reported, by request number.
    final class Ledger: @unchecked Sendable {
        // `lock` guards `calls`, `outcomes` and `cancelled`.
        private let lock = NSLock()
        private var calls: [Int]
        private var outcomes: [String: Int] = [:]
        private var cancelled: Set<Int> = []
        private var cancelledWithoutAsking = 0

        init(count: Int) { calls = Array(repeating: 0, count: count) }

        func markCancelled(_ index: Int) { lock.withLock { _ = cancelled.insert(index) } }

        func record(_ index: Int, _ result: Result<Response, any Error>) {
            let outcome: String
            switch result {
            case .success(let response): outcome = "HTTP \(response.status)"
            case .failure(let error as FetchError): outcome = error.code.rawValue
            case .failure(let error): outcome = "\(type(of: error))"
            }
            lock.withLock {
                calls[index] += 1
                outcomes[outcome, default: 0] += 1
                if outcome == FetchError.Code.cancelled.rawValue && !cancelled.contains(index) {
                    cancelledWithoutAsking += 1
                }
            }
        }

        var completed: Int { lock.withLock { calls.filter { $0 > 0 }.count } }
        var calledMoreThanOnce: [Int] { lock.withLock { calls.indices.filter { calls[$0] > 1 } } }
        var summary: [String: Int] { lock.withLock { outcomes } }
        var unaskedCancellations: Int { lock.withLock { cancelledWithoutAsking } }
    }

    /// Starts `total` requests from `threads` threads, 64 in flight per thread at most, and
    /// cancels about a third of them at a random moment from a random thread; waits until
    /// every one has completed (120 s at most), then half a second more for late second calls.
    static func run(
        _ total: Int, threads: Int = 4, on session: Session,
        request: @escaping @Sendable (Int) -> BasicRequest
    ) async throws -> (Ledger, Duration) {
        let ledger = Ledger(count: total)
        let clock = ContinuousClock()
        let start = clock.now
        for thread in 0..<threads {
            Thread.detachNewThread {
                let inFlight = DispatchSemaphore(value: 64)
                for index in stride(from: thread, to: total, by: threads) {
                    inFlight.wait()
                    let call = session.perform(request(index)) { result in
                        ledger.record(index, result)
                        inFlight.signal()
                    }
                    switch Int.random(in: 0..<6) {
                    case 0:
                        ledger.markCancelled(index)
                        call.cancel()
                    case 1:
                        ledger.markCancelled(index)
                        DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0..<3000))) {
                            call.cancel()
                        }
                    default:
                        break
                    }
                }
            }
        }
        let limit = start + .seconds(120)
        while ledger.completed < total && clock.now < limit {
            try await Task.sleep(for: .milliseconds(100))
        }
        let elapsed = clock.now - start
        try await Task.sleep(for: .milliseconds(500))
        return (ledger, elapsed)
    }

    @Test func manyRequestsInAProcessOfTheirOwn() async throws {
        // Given a child process that runs nothing but the thousands of requests below: they
        // keep URLSession's work queue, which every session of a process shares, busy for
        // seconds, and every other test's requests would wait behind them
        let servers = try LoopbackServers.require()
        // When it runs them
        let outcome = try await IsolatedRun.run("IsolatedConcurrencyTests/", faultServer: servers.faults)
        // Then they passed there
        let lines = outcome.lines(from: "requests: completed")
        for line in lines { print(line) }
        #expect(outcome.status == 0, "\(outcome.output.suffix(3000))")
        #expect(lines.count == 2)
    }

    @Test func cancelAllEndsEveryRequestInFlight() async throws {
        // Given a session with 5 requests to a server that never answers (it holds each
        // connection until the client leaves, 30 s at most), all of which the server has
        // received (4 of them: a default session runs 4 at once per origin, and queues the fifth)
        let servers = try LoopbackServers.require()
        let session = Session()
        let tag = uniqueTag()
        let url = servers.faults.url("/stall?tag=\(tag)")
        let codes = try await withThrowingTaskGroup(of: FetchError.Code?.self) { tasks in
            for _ in 0..<5 {
                tasks.addTask {
                    do {
                        _ = try await session.response(for: BasicRequest(url: url))
                        return nil
                    } catch let error as FetchError {
                        return error.code
                    }
                }
            }
            // (waiting for what the server saw, not for a time: a child task may start late
            // on a busy cooperative pool, and then it would be sent after the cancel)
            try await servers.faults.waitUntilSeen(4, tag: tag)
            // When cancelAll is called
            session.cancelAll()
            return try await tasks.reduce(into: [FetchError.Code?]()) { $0.append($1) }
        }
        // Then each ends with cancelled (the server would have ended them without an answer,
        // a bad server response, and only after 30 s)
        #expect(codes == Array(repeating: .cancelled, count: 5))
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        // Given a request to a server that never answers, performed in a Task, which the
        // server has received
        let servers = try LoopbackServers.require()
        let session = Session()
        let tag = uniqueTag()
        let task = Task { try await session.response(for: BasicRequest(url: servers.faults.url("/stall?tag=\(tag)"))) }
        try await servers.faults.waitUntilSeen(tag: tag)
        // When the Task is cancelled
        task.cancel()
        // Then the call throws cancelled
        let error = await #expect(throws: FetchError.self) {
            try await task.value(within: .seconds(20), "the cancelled call")
        }
        #expect(error?.code == .cancelled)
    }
}

/// The part of ``ConcurrencyTests`` that runs in a child process of its own (see
/// ``IsolatedRun``).
struct IsolatedConcurrencyTests {
    static let isChild = IsolatedRun.isChild(named: "IsolatedConcurrencyTests/")

    @Test(.enabled(if: isChild)) func tenThousandRequestsWithRandomCancellationCompleteExactlyOnce() async throws {
        // Given a default session (4 requests at once per origin, the rest queued)
        let url = try IsolatedRun.faultServer(path: "/status?code=200&body=ok")
        // When 10,000 requests run from 4 threads, about a third cancelled at random moments
        let (ledger, elapsed) = try await ConcurrencyTests.run(10_000, on: Session()) { _ in BasicRequest(url: url) }
        // Then every request completed, each exactly once, well within the bound
        print("10,000 requests: completed in \(elapsed); outcomes \(ledger.summary.sorted { $0.key < $1.key })")
        #expect(ledger.completed == 10_000)
        #expect(ledger.calledMoreThanOnce.isEmpty)
        #expect(elapsed < .seconds(120))
        // And only the requests that were cancelled ended as cancelled
        #expect(ledger.unaskedCancellations == 0)
        #expect((ledger.summary["HTTP 200"] ?? 0) > 10_000 / 2)
    }

    @Test(.enabled(if: isChild)) func cancellationRacesEveryWayARequestEnds() async throws {
        // Given a session that runs 32 requests at once, so that cancels reach running
        // tasks, and requests that end in every way a running request can: a response, a
        // 307 whose body is sent again as a new task, a deadline about as long as the
        // answer takes, and a body over its limit
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 32
        let session = Session(configuration: configuration)
        let plain = try IsolatedRun.faultServer(path: "/status?code=200&body=ok")
        let resent = try IsolatedRun.faultServer(path: "/redirect?code=307&to=/echo")
        let large = try IsolatedRun.faultServer(path: "/status?code=200&body=too-large-for-the-limit")
        let request: @Sendable (Int) -> BasicRequest = { index in
            switch index % 4 {
            case 0: return BasicRequest(url: plain)
            case 1: return BasicRequest(url: resent, method: .post, body: .text("body \(index)"))
            case 2:
                return BasicRequest(
                    url: plain, options: RequestOptions().with(\.deadline, .microseconds(500 * (index % 7))))
            default: return BasicRequest(url: large, options: RequestOptions().with(\.maximumBodySize, 4))
            }
        }
        // When 4,000 of them run from 4 threads, about a third cancelled at random moments
        let (ledger, elapsed) = try await ConcurrencyTests.run(4_000, on: session, request: request)
        // Then every request completed exactly once, and none ended as cancelled unasked
        print("4,000 mixed requests: completed in \(elapsed); outcomes \(ledger.summary.sorted { $0.key < $1.key })")
        #expect(ledger.completed == 4_000)
        #expect(ledger.calledMoreThanOnce.isEmpty)
        #expect(ledger.unaskedCancellations == 0)
        // And each way of ending happened
        for outcome in ["HTTP 200", "cancelled", "deadlineExceeded", "bodyTooLarge"] {
            #expect((ledger.summary[outcome] ?? 0) > 0, "no request ended as \(outcome)")
        }
    }
}
