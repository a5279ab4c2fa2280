import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

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

    @Test func tenThousandRequestsWithRandomCancellationCompleteExactlyOnce() async throws {
        // Given 4 threads that each start 2,500 requests, 64 in flight per thread at most,
        // and cancel about a third of them at a random moment from a random thread
        let servers = try LoopbackServers.require()
        let session = Session()
        let total = 10_000
        let threads = 4
        let ledger = Ledger(count: total)
        let url = servers.faults.url("/status?code=200&body=ok")
        let clock = ContinuousClock()
        let start = clock.now
        // When they all run
        for thread in 0..<threads {
            Thread.detachNewThread {
                let inFlight = DispatchSemaphore(value: 64)
                for index in stride(from: thread, to: total, by: threads) {
                    inFlight.wait()
                    let call = session.perform(BasicRequest(url: url)) { result in
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
        // Late second completions would show up in the meantime
        try await Task.sleep(for: .milliseconds(500))
        // Then every request completed, each exactly once, well within the bound
        print("10,000 requests: completed in \(elapsed); outcomes \(ledger.summary.sorted { $0.key < $1.key })")
        #expect(ledger.completed == total)
        #expect(ledger.calledMoreThanOnce.isEmpty)
        #expect(elapsed < .seconds(120))
        // And only the requests that were cancelled ended as cancelled
        #expect(ledger.unaskedCancellations == 0)
        #expect((ledger.summary["HTTP 200"] ?? 0) > total / 2)
    }

    @Test func cancelAllEndsEveryRequestInFlight() async throws {
        // Given a session with 5 requests to a server that never answers
        let servers = try LoopbackServers.require()
        let session = Session()
        let url = servers.faults.url("/stall?seconds=10")
        let clock = ContinuousClock()
        let start = clock.now
        // When they are all in flight and cancelAll is called
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
            try await Task.sleep(for: .milliseconds(300))
            session.cancelAll()
            return try await tasks.reduce(into: [FetchError.Code?]()) { $0.append($1) }
        }
        // Then each ends with cancelled, well before the server's 10 s stall would end them
        // (the bound leaves room for a loaded machine; this is not a timing test)
        #expect(codes == Array(repeating: .cancelled, count: 5))
        #expect(clock.now - start < .seconds(8))
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        // Given a request to a server that never answers, performed in a Task
        let servers = try LoopbackServers.require()
        let session = Session()
        let task = Task { try await session.response(for: BasicRequest(url: servers.faults.url("/stall?seconds=10"))) }
        try await Task.sleep(for: .milliseconds(200))
        // When the Task is cancelled
        task.cancel()
        // Then the call throws cancelled
        let error = await #expect(throws: FetchError.self) { try await task.value }
        #expect(error?.code == .cancelled)
    }
}
