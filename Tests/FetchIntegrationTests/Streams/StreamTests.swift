import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport

/// Streams through `Session` against httpbin and the fault server: chunks, lines and
/// Server-Sent Events as they arrive, and every way a stream ends.
@Suite(.loopbackServers)
struct StreamTests {
    static func session(idle: Duration = .seconds(10)) -> Session {
        var configuration = Session.Configuration()
        configuration.idleTimeout = idle
        return Session(configuration: configuration)
    }

    static func get(_ server: TestServer, _ path: String) -> BasicRequest {
        BasicRequest(url: server.url(path))
    }

    @Test func httpbinStreamArrivesAsLinesOfJSONAfterTheHead() async throws {
        // Given httpbin's /stream/5, which sends 5 JSON lines
        let servers = try LoopbackServers.require()

        // When it is streamed as lines
        let stream = try await Self.session().stream(Self.get(servers.httpbin, "/stream/5"))
        let lines = try await stream.lines.collected(within: standardBound, "the lines").filter { !$0.isEmpty }
        let ids = try lines.map { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? Int ?? -1
        }

        // Then the head came first with its headers, then every line in order
        #expect(stream.response.status == 200)
        #expect(stream.response.mediaType == "application/json")
        #expect(ids == [0, 1, 2, 3, 4])
    }

    @Test func httpbinDripArrivesWhole() async throws {
        // Given httpbin's /drip, 4 bytes over a second
        let servers = try LoopbackServers.require()

        // When it is streamed as chunks
        let stream = try await Self.session().stream(Self.get(servers.httpbin, "/drip?numbytes=4&duration=1&delay=0"))
        let received = try await stream.chunks.collected(within: standardBound, "the drip").reduce(0) { $0 + $1.count }

        // Then all 4 bytes came after a 200 head
        #expect(stream.response.status == 200)
        #expect(received == 4)
    }

    @Test func theFirstBytesAreReadWhileTheServerStillHoldsTheRest() async throws {
        // Given a server that sends the head and 5 of 100 bytes, then waits 30 s
        let servers = try LoopbackServers.require()

        // When it is streamed and the first chunk read
        let stream = try await Self.session().stream(Self.get(servers.faults, "/five-then-stall?part=body"))
        let first = try await stream.chunks.next(within: standardBound, "the first chunk")

        // Then the head and the first bytes are here long before the body could be complete
        #expect(stream.response.headers.first("Content-Length") == "100")
        #expect(first == Data("12345".utf8))
        stream.cancel()
    }

    @Test func everySSEParsingEdgeFromTheServer() async throws {
        // Given the fault server's /sse: a BOM, CR, LF and CRLF line ends split across
        // chunks, comments, an id with NUL, retry with and without digits, an event
        // without data and a last event without its blank line
        let servers = try LoopbackServers.require()

        // When it is streamed as events
        let stream = try await Self.session().stream(Self.get(servers.faults, "/sse"))
        let events = try await stream.events.collected(within: standardBound, "the events")

        // Then exactly the complete events came, as the standard says
        #expect(stream.response.mediaType == "text/event-stream")
        #expect(
            events == [
                ServerSentEvent(type: "message", data: "first", id: "1", retry: 2500),
                ServerSentEvent(type: "add", data: "two\n lines", id: "1", retry: 2500),
                ServerSentEvent(type: "message", data: "", id: "1", retry: 2500),
                ServerSentEvent(type: "message", data: "last ✓", id: "", retry: 2500),
            ])
    }

    @Test func aDisconnectMidStreamThrowsAfterTheEventsBeforeIt() async throws {
        // Given /sse cut before its last chunk
        let servers = try LoopbackServers.require()

        // When it is streamed as events
        let stream = try await Self.session().stream(Self.get(servers.faults, "/sse?cut=1"))
        var events: [ServerSentEvent] = []
        let error = await #expect(throws: FetchError.self) {
            for try await event in stream.events { events.append(event) }
        }

        // Then the four events came, then connectionLost saying bytes were delivered
        #expect(events.count == 4)
        #expect(error?.code == .connectionLost)
        #expect(error?.reason.contains("delivered") == true)
        #expect(error?.url == servers.faults.url("/sse?cut=1"))
    }

    @Test(arguments: ["/partial", "/chunked-cut", "/reset"])
    func aTruncatedBodyIsAnErrorAfterItsChunks(path: String) async throws {
        // Given a body shorter than its Content-Length, a chunked body without its last
        // chunk, and a connection reset part way
        let servers = try LoopbackServers.require()

        // When it is streamed
        let stream = try await Self.session().stream(Self.get(servers.faults, path))
        var received = 0
        let error = await #expect(throws: FetchError.self) {
            for try await chunk in stream.chunks { received += chunk.count }
        }

        // Then the bytes that came were delivered, then connectionLost
        #expect(received >= 10)
        #expect(error?.code == .connectionLost)
    }

    @Test func aStatusOtherThan2xxThrowsHttpStatusWithTheStartOfTheBody() async throws {
        // Given a 404 with a body
        let servers = try LoopbackServers.require()

        // When it is streamed
        let error = await #expect(throws: FetchError.self) {
            _ = try await Self.session().stream(Self.get(servers.faults, "/status?code=404&body=no%20such%20feed"))
        }

        // Then it throws httpStatus with the body in the response and the description
        #expect(error?.code == .httpStatus)
        #expect(error?.status == 404)
        #expect(error?.response?.body == Data("no such feed".utf8))
        #expect(error?.description.contains("no such feed") == true)
    }

    @Test func aLineOverTheLimitEndsTheStreamWithBodyTooLarge() async throws {
        // Given 4 MiB without a line end
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()

        // When it is streamed as lines with a 1 MiB limit
        let stream = try await Self.session().stream(Self.get(servers.faults, "/long-line?seconds=25&tag=\(tag)"))
        let error = await #expect(throws: FetchError.self) {
            for try await _ in stream.lines {}
        }

        // Then it fails with bodyTooLarge naming the request, and the transfer is ended
        #expect(error?.code == .bodyTooLarge)
        #expect(error?.url == servers.faults.url("/long-line?seconds=25&tag=\(tag)"))
        let ended = try await Self.waitForEnd(of: tag, on: servers.faults, within: 30)
        #expect(ended?.aborted == "/long-line", "\(ConnectionHolders.describe(localPort: ended?.port))")
    }

    @Test(.enabled(if: TimedProcess.isChild))  // in the timed suites' process (see TimedTests)
    func leavingTheLoopEndsTheTransfer() async throws {
        // Given 200 MiB at 20 MiB/s
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()
        let count = 200 << 20

        // When the loop leaves after the first chunk
        let stream = try await Self.session().stream(Self.get(servers.faults, "/bytes?n=\(count)&rate=20&tag=\(tag)"))
        for try await _ in stream.chunks { break }

        // Then the server sees the client go away long before the end
        let ended = try await Self.waitForEnd(of: tag, on: servers.faults)
        #expect(ended?.aborted == "/bytes")
        #expect((ended?.sent ?? count) < count)
    }

    @Test func theCallbackAPIDeliversChunksThenCompletesOnce() async throws {
        // Given httpbin's /stream/3
        let servers = try LoopbackServers.require()
        let received = LockedBox(0)

        // When it is streamed with callbacks
        let result: Result<Response, any Error> = try await within("the stream's completion") {
            await withCheckedContinuation { done in
                Self.session().stream(
                    Self.get(servers.httpbin, "/stream/3"),
                    onChunk: { chunk in received.withLock { $0 += chunk.count } }
                ) {
                    done.resume(returning: $0)
                }
            }
        }

        // Then the chunks came before a successful completion whose body is empty
        let response = try result.get()
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(received.withLock { $0 } > 0)
    }

    @Test(.enabled(if: TimedProcess.isChild))  // in the timed suites' process (see TimedTests)
    func theDeadlineEndsAStreamAfterItsChunks() async throws {
        // Given a body trickling one byte every 0.2 s for 30 s, and a deadline of 5 s (20 s
        // under the thread sanitizer)
        let servers = try LoopbackServers.require()
        let deadline: Duration = .seconds(ProcessMemory.underThreadSanitizer ? 20 : 5)
        let request = Self.get(servers.faults, "/trickle?count=150&interval=0.2").with(\.deadline, deadline)

        // When it is streamed
        let stream = try await Self.session().stream(request)
        var received = 0
        let error = await #expect(throws: FetchError.self) {
            for try await chunk in stream.chunks { received += chunk.count }
        }

        // Then some bytes came, then deadlineExceeded
        #expect(received > 0)
        #expect(error?.code == .deadlineExceeded)
    }

    /// The aborted or completed record of `tag`'s transfer, waiting up to `seconds` for it.
    static func waitForEnd(of tag: String, on server: TestServer, within seconds: Int = 10) async throws -> SeenRequest?
    {
        for _ in 0..<(seconds * 10) {
            if let ended = try await server.seen(tag: tag).first(where: { $0.aborted != nil || $0.completed != nil }) {
                return ended
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }
}
