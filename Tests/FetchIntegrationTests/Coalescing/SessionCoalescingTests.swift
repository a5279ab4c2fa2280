import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// Identical calls through `.coalescing()` over a `Session` reach the server once.
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct SessionCoalescingTests {
    @Test func aHundredConcurrentIdenticalGetsMakeOneRequest() async throws {
        // Given a slow resource on the fault server, which logs every request with its tag
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()
        let api = Session().coalescing()
        let request = BasicRequest(url: servers.faults.url("/slow?seconds=0.5&tag=\(tag)"))

        // When 100 callers ask for it at once
        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 { group.addTask { try await api.perform(request, as: String.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        // Then all 100 succeeded, and the server received one request
        #expect(bodies.count == 100)
        #expect(bodies.allSatisfy { $0 == "slow" })
        #expect(try await servers.faults.seen(tag: tag).count == 1)
    }

    @Test func theSharedRequestIsCancelledOnlyWhenEveryCallerLeft() async throws {
        // Given two callers sharing a slow request
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()
        let api = Session().coalescing()
        let sanitized = ProcessMemory.underThreadSanitizer
        let request = BasicRequest(url: servers.faults.url("/slow?seconds=\(sanitized ? 2 : 0.5)&tag=\(tag)"))
        let first = Task { try await api.perform(request, as: String.self) }
        let second = Task { try await api.perform(request, as: String.self) }
        // (a fixed wait: both callers have joined, and the shared request has most of its
        // time to go; four times as long under the thread sanitizer)
        try await Task.sleep(for: .milliseconds(sanitized ? 400 : 100))

        // When the first caller cancels
        first.cancel()

        // Then it fails with cancelled, and the second still gets the body from the one request
        await #expect(throws: FetchError.self) { try await first.value }
        #expect(try await second.value == "slow")
        #expect(try await servers.faults.seen(tag: tag).count == 1)
        #expect(api.inFlightCount == 0)
    }
}
