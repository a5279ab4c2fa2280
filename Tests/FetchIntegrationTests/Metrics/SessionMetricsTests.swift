import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport

/// `Session` fills in every response's metrics: timings, redirects and byte counts.
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct SessionMetricsTests {
    @Test func aGetIsTimedAndCounted() async throws {
        // Given a GET of 3,000 bytes
        let servers = try LoopbackServers.require()
        let before = Date()

        // When it is performed
        let response = try await Session().response(for: BasicRequest(url: servers.faults.url("/bytes?n=3000")))

        // Then it started now, its timings are in order, and it received the body
        let metrics = response.metrics
        let start = try #require(metrics.start)
        #expect(start >= before.addingTimeInterval(-0.001) && start <= Date())
        let queued = try #require(metrics.queued)
        let firstByte = try #require(metrics.timeToFirstByte)
        let total = try #require(metrics.total)
        #expect(.zero <= queued && queued <= firstByte && firstByte <= total)
        #expect(metrics.bytesReceived == 3000)
        #expect(metrics.bytesSent == 0)
        #expect(metrics.redirects == 0)
        #expect(metrics.retries == 0 && metrics.refreshes == 0 && metrics.cache == nil && !metrics.shared)
    }

    @Test func aPostCountsTheBodySent() async throws {
        // Given a POST of 1,234 bytes
        let servers = try LoopbackServers.require()
        let body = Data(repeating: 0x61, count: 1234)
        let request = BasicRequest(
            url: servers.httpbin.url("/post"), method: .post, body: .data(body, contentType: "text/plain"))

        // When it is performed
        let response = try await Session().response(for: request)

        // Then the metrics count what was sent and what came back
        #expect(response.status == 200)
        #expect(response.metrics.bytesSent == 1234)
        #expect(response.metrics.bytesReceived == Int64(response.body.count))
    }

    @Test func redirectsFollowedAreCounted() async throws {
        // Given a URL that redirects three times
        let servers = try LoopbackServers.require()

        // When it is performed
        let response = try await Session().response(for: BasicRequest(url: servers.faults.url("/chain?n=3")))

        // Then three redirects were followed
        #expect(String(decoding: response.body, as: UTF8.self) == "done")
        #expect(response.metrics.redirects == 3)
    }

    @Test func timeWaitingForASlotIsQueuedTime() async throws {
        // Given a session with one slot per origin and two slow requests at once
        let servers = try LoopbackServers.require()
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 1
        let session = Session(configuration: configuration)
        let slow = BasicRequest(url: servers.faults.url("/slow?seconds=0.3&group=\(uniqueTag())"))

        // When both are made, one right after the other
        let (one, two) = try await Self.performBoth(slow, on: session)

        // Then the second waited for the first's slot, and its wait is part of its first byte's time
        let waited = try #require(two.metrics.queued)
        #expect(waited >= .milliseconds(250))
        #expect(try #require(one.metrics.queued) < waited)
        #expect(try #require(two.metrics.timeToFirstByte) >= waited)
    }

    @Test func aDownloadCountsTheBytesWrittenToItsFile() async throws {
        // Given a download of 20,000 bytes
        let servers = try LoopbackServers.require()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }

        // When it is performed
        let response = try await Session().download(
            BasicRequest(url: servers.faults.url("/bytes?n=20000")), to: .file(file)
        ).response

        // Then its metrics count the bytes and time its first byte
        #expect(response.metrics.bytesReceived == 20000)
        #expect(response.metrics.timeToFirstByte != nil)
    }

    @Test func aSessionCanCollectNoMetrics() async throws {
        // Given a session that collects none
        let servers = try LoopbackServers.require()
        var configuration = Session.Configuration()
        configuration.collectsMetrics = false

        // When a GET is performed
        let response = try await Session(configuration: configuration).response(
            for: BasicRequest(url: servers.faults.url("/bytes?n=10")))

        // Then its metrics are empty
        #expect(response.body.count == 10)
        #expect(response.metrics == ResponseMetrics())
    }

    /// Performs `request` twice on `session`, the second call made as soon as the first
    /// returns, and waits for both responses.
    private static func performBoth(_ request: any Request, on session: Session) async throws -> (Response, Response) {
        final class Pair: @unchecked Sendable {
            // `lock` guards `results` and `continuation`.
            let lock = NSLock()
            var results: [Int: Result<Response, any Error>] = [:]
            var continuation: CheckedContinuation<(Response, Response), any Error>?

            func record(_ index: Int, _ result: Result<Response, any Error>) {
                let done:
                    (CheckedContinuation<(Response, Response), any Error>, Result<(Response, Response), any Error>)? =
                        lock.withLock {
                            results[index] = result
                            guard results.count == 2, let continuation, let first = results[0], let second = results[1]
                            else { return nil }
                            self.continuation = nil
                            return (continuation, Result { (try first.get(), try second.get()) })
                        }
                if let (continuation, outcome) = done { continuation.resume(with: outcome) }
            }
        }
        let pair = Pair()
        return try await within("the two completions") {
            try await withCheckedThrowingContinuation { continuation in
                pair.lock.withLock { pair.continuation = continuation }
                session.perform(request) { pair.record(0, $0) }
                session.perform(request) { pair.record(1, $0) }
            }
        }
    }
}
