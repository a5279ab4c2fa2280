import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport
import FetchCaching

/// Streams through the cache, coalescing and a verifier over a real `Session`, against the
/// fault server (which logs every request with its tag) and httpbin.
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct CallKindSessionTests {
    /// Reads a whole stream of `request` through `api`.
    private func streamed(_ api: some RequestPerforming, _ request: any Request) async throws -> Data {
        try await api.stream(request).chunks.collected(within: standardBound, "the stream").reduce(Data(), +)
    }

    @Test func aStreamThroughTheCacheLeavesNothingForALaterGet() async throws {
        // Given a resource the server allows to be stored for an hour, and a cache over a session
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()
        let request = BasicRequest(url: servers.faults.url("/resource?tag=\(tag)"))
        let api = Session().caching()

        // When it is streamed, then fetched plainly twice
        let body = try await streamed(api, request)
        let first = try await api.response(for: request)
        let second = try await api.response(for: request)

        // Then the stream got the whole body, the first plain GET went to the server and got
        // it too, and only that plain response was stored and served
        #expect(body == Data("the resource body".utf8))
        #expect(first.metrics.cache == .miss)
        #expect(first.body == Data("the resource body".utf8))
        #expect(second.metrics.cache == .hit)
        #expect(second.body == first.body)
        #expect(try await servers.faults.seen(tag: tag).count == 2)
    }

    @Test func identicalStreamsThroughCoalescingEachGetTheirBody() async throws {
        // Given a slow resource and a coalescing layer over a session
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()
        let request = BasicRequest(url: servers.faults.url("/slow?seconds=0.3&tag=\(tag)"))
        let api = Session().coalescing()

        // When two identical streams run at the same time
        async let first = streamed(api, request)
        async let second = streamed(api, request)
        let bodies = try await [first, second]

        // Then each reader got the whole body from a request of its own
        #expect(bodies == [Data("slow".utf8), Data("slow".utf8)])
        #expect(try await servers.faults.seen(tag: tag).count == 2)
    }

    @Test func aVerifierRefusesAStreamOfAnotherMediaTypeAtItsHead() async throws {
        // Given a JSON-only verifier over a session, and the fault server's event stream
        let servers = try LoopbackServers.require()
        let api = Session().enhanced(by: ContentTypeVerifier.json)

        // When the event stream is opened
        let error = await #expect(throws: FetchError.self) {
            try await api.stream(BasicRequest(url: servers.faults.url("/sse")))
        }

        // Then it failed before the reader got a stream, naming the media type
        #expect(error?.code == .badServerResponse)
        #expect(error?.reason.contains("text/event-stream") == true)
    }

    @Test func aVerifierLetsAStreamOfItsMediaTypeThrough() async throws {
        // Given a JSON-only verifier over a session, and httpbin's JSON lines
        let servers = try LoopbackServers.require()
        let api = Session().enhanced(by: ContentTypeVerifier.json)

        // When the lines are streamed
        let stream = try await api.stream(BasicRequest(url: servers.httpbin.url("/stream/3")))
        let lines = try await stream.lines.collected(within: standardBound, "the lines").filter { !$0.isEmpty }.count

        // Then all three arrived after a head marked as streamed
        #expect(lines == 3)
        #expect(stream.response.isStreamed)
    }
}
