import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport
import FetchCaching

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
        // Given two callers sharing a request that the server answers only when the test lets
        // it (each caller has joined when `perform` returns: joining is part of the call)
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()
        let api = Session().coalescing()
        let request = BasicRequest(url: servers.faults.url("/gate?tag=\(tag)"))
        let (firstEnds, firstEnded) = AsyncStream.makeStream(of: Result<String, any Error>.self)
        let (secondEnds, secondEnded) = AsyncStream.makeStream(of: Result<String, any Error>.self)
        let first = api.perform(request, as: String.self) { firstEnded.yield($0) }
        api.perform(request, as: String.self) { secondEnded.yield($0) }

        // When the first caller cancels, and only then the server answers
        first.cancel()
        let firstEnd = try await within("the first caller's completion") { await firstEnds.first { _ in true } }
        try await servers.faults.openGate(tag: tag)
        let secondEnd = try await within("the second caller's completion") { await secondEnds.first { _ in true } }

        // Then the first failed with cancelled, and the second still got the body of the one request
        #expect((firstEnd?.failure as? FetchError)?.code == .cancelled)
        #expect(try secondEnd?.get() == "gate")
        #expect(try await servers.faults.seen(tag: tag).count == 1)
        #expect(api.inFlightCount == 0)
    }
}
