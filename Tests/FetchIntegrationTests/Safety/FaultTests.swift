import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

extension TimedTests {
    /// Servers that fail or answer oddly: each ends in its own named error, or in a
    /// well-formed response, never in a hang or a crash, within its bound.
    @Suite(.loopbackServers)
    struct FaultTests {
        /// A session whose requests give up quickly: idle timeout `idle`, deadline `deadline`.
        static func session(idle: Duration = .seconds(5), deadline: Duration = .seconds(10)) -> Session {
            var configuration = Session.Configuration()
            configuration.idleTimeout = idle
            configuration.deadline = deadline
            return Session(configuration: configuration)
        }

        /// Performs `request` and returns the FetchError it failed with and how long it took.
        static func failure(of request: any Request, on session: Session) async -> (FetchError?, Duration) {
            let clock = ContinuousClock()
            let start = clock.now
            let error = await #expect(throws: FetchError.self) { try await session.response(for: request) }
            return (error, clock.now - start)
        }

        /// `seconds` as a bound on how long something takes; under the thread sanitizer, where
        /// the whole suite runs several times slower on 2 cores, four times as long.
        static func bound(_ seconds: Int) -> Duration {
            .seconds(ProcessMemory.underThreadSanitizer ? seconds * 4 : seconds)
        }

        @Test func connectionRefusedIsCannotConnect() async throws {
            // Given a port on 127.0.0.1 that is held bound and never listens
            let refusing = try RefusingPort()
            let url = URL(string: "http://127.0.0.1:\(refusing.port)/")!
            // When a request is sent to it
            let (error, elapsed) = await Self.failure(of: BasicRequest(url: url), on: Self.session())
            // Then it fails at once with cannotConnect naming the URL
            #expect(error?.code == .cannotConnect)
            #expect(error?.url == url)
            #expect(elapsed < Self.bound(5))
            withExtendedLifetime(refusing) {}
        }

        @Test func unknownHostIsHostNotFound() async throws {
            // Given a host under the reserved .invalid top-level domain, which never resolves
            let url = URL(string: "http://fetch-fault-suite.invalid/")!
            // When a request is sent to it
            let (error, elapsed) = await Self.failure(of: BasicRequest(url: url), on: Self.session())
            // Then it fails with hostNotFound naming the URL, without waiting for a timeout
            #expect(error?.code == .hostNotFound)
            #expect(error?.url == url)
            #expect(elapsed < Self.bound(5))
        }

        /// A server behaviour and the error it must end in.
        struct Fault: CustomTestStringConvertible, Sendable {
            let path: String
            let code: FetchError.Code
            let testDescription: String
        }

        static let silences = [
            Fault(path: "/stall?seconds=10", code: .timedOut, testDescription: "never answers"),
            Fault(
                path: "/five-then-stall?part=head&seconds=10", code: .timedOut,
                testDescription: "5 bytes of the status line, then silence"),
            Fault(
                path: "/five-then-stall?part=body&seconds=10", code: .timedOut,
                testDescription: "headers and 5 bytes of the body, then silence"),
        ]

        @Test(arguments: silences)
        func silenceEndsInTheIdleTimeout(fault: Fault) async throws {
            // Given a server that goes silent, and a 1 s idle timeout
            let servers = try LoopbackServers.require()
            let url = servers.faults.url(fault.path)
            // When a request is sent to it
            let (error, elapsed) = await Self.failure(of: BasicRequest(url: url), on: Self.session(idle: .seconds(1)))
            // Then it fails with timedOut naming the URL, after about the idle timeout
            #expect(error?.code == fault.code)
            #expect(error?.url == url)
            #expect(elapsed < Self.bound(8))
        }

        @Test func tricklePastTheDeadlineEndsOnTime() async throws {
            // Given a body trickling one byte every 0.5 s (so the idle timeout never fires) and a 2 s deadline
            let servers = try LoopbackServers.require()
            let url = servers.faults.url("/trickle?interval=0.5&count=40")
            let session = Self.session(idle: .seconds(5), deadline: .seconds(2))
            // When it is requested
            let (error, elapsed) = await Self.failure(of: BasicRequest(url: url), on: session)
            // Then the overall deadline ends it on time with deadlineExceeded naming the URL
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.url == url)
            // (the body lasts 20 s; the deadline fires at 2.0 s in a quiet process)
            #expect(elapsed >= .seconds(2) && elapsed < Self.bound(4))
            print("trickle: deadline of 2 s fired after \(elapsed)")
        }

        @Test func perRequestDeadlineReplacesTheSessions() async throws {
            // Given a session with a long deadline and a request with a 1 s deadline of its own
            let servers = try LoopbackServers.require()
            let url = servers.faults.url("/trickle?interval=0.5&count=40")
            var request = BasicRequest(url: url)
            request.options.deadline = .seconds(1)
            // When it is requested
            let (error, elapsed) = await Self.failure(of: request, on: Self.session(deadline: .seconds(30)))
            // Then the request's own deadline ends it
            #expect(error?.code == .deadlineExceeded)
            #expect(elapsed < .seconds(8))
        }

        static let brokenReplies = [
            Fault(path: "/partial", code: .connectionLost, testDescription: "Content-Length 1000, 10 bytes, close"),
            Fault(path: "/reset", code: .connectionLost, testDescription: "Content-Length 1000, 10 bytes, reset"),
            Fault(path: "/five-then-stall?seconds=0", code: .badServerResponse, testDescription: "5 bytes, then close"),
            Fault(path: "/empty", code: .badServerResponse, testDescription: "close without a byte"),
            Fault(path: "/garbage", code: .badServerResponse, testDescription: "a reply that is not HTTP"),
        ]

        @Test(arguments: brokenReplies)
        func brokenReplyEndsInItsNamedError(fault: Fault) async throws {
            // Given a server whose reply is cut short or is not HTTP
            let servers = try LoopbackServers.require()
            let url = servers.faults.url(fault.path)
            // When it is requested
            let (error, _) = await Self.failure(of: BasicRequest(url: url), on: Self.session())
            // Then the call fails with the named error, naming the URL (never a short body)
            #expect(error?.code == fault.code)
            #expect(error?.url == url)
        }

        @Test func chunkedBodyArrivesWhole() async throws {
            // Given a server that sends its body in 5 chunks of 7 bytes
            let servers = try LoopbackServers.require()
            // When it is requested
            let response = try await Self.session().response(for: BasicRequest(url: servers.faults.url("/chunked")))
            // Then the chunks arrive joined, without their framing
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "aaaaaaabbbbbbbcccccccdddddddeeeeeee")
        }

        @Test func noContentHasAnEmptyBody() async throws {
            // Given a server that answers 204
            let servers = try LoopbackServers.require()
            // When it is requested
            let response = try await Self.session().response(
                for: BasicRequest(url: servers.faults.url("/status?code=204")))
            // Then the response is a 204 with an empty body
            #expect(response.status == 204)
            #expect(response.body.isEmpty)
        }

        @Test func headHasHeadersAndNoBodyEvenWhenTheLengthIsOverTheLimit() async throws {
            // Given a HEAD of a resource announced as 1 GiB, over the 32 MiB body limit
            let servers = try LoopbackServers.require()
            let request = BasicRequest(url: servers.faults.url("/resource?length=1073741824"), method: .head)
            // When it is performed
            let response = try await Self.session().response(for: request)
            // Then the headers arrive, the body is empty, and the limit does not apply to a body never sent
            #expect(response.status == 200)
            #expect(response.headers.first("Content-Length") == "1073741824")
            #expect(response.headers.first("ETag") == "\"v1\"")
            #expect(response.body.isEmpty)
        }

        @Test func notModifiedIsReturnedAsIs() async throws {
            // Given a conditional GET whose ETag matches
            let servers = try LoopbackServers.require()
            let request = BasicRequest(url: servers.faults.url("/resource"), headers: ["If-None-Match": "\"v1\""])
            // When it is performed
            let response = try await Self.session().response(for: request)
            // Then the 304 itself is the response, with an empty body
            #expect(response.status == 304)
            #expect(response.body.isEmpty)
            #expect(response.headers.first("ETag") == "\"v1\"")
        }
    }
}
