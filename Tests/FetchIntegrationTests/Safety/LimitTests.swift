import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// Bodies are bounded in memory, large bodies are held once, refused bodies are not read to
/// the end, and the connections to one host are bounded by the session's setting.
@Suite(.loopbackServers)
struct LimitTests {
    static let mebibyte = 1024 * 1024

    /// A GET of `n` bytes from the fault server, with Content-Length or chunked, tagged.
    static func bytes(_ count: Int, chunked: Bool, tag: String, limit: Int?) throws -> BasicRequest {
        let servers = try LoopbackServers.require()
        var request = BasicRequest(url: servers.faults.url("/bytes?n=\(count)&chunked=\(chunked ? 1 : 0)&tag=\(tag)"))
        request.options.maximumBodySize = limit
        return request
    }

    @Test(arguments: [false, true])
    func bodyOfExactlyTheLimitArrives(chunked: Bool) async throws {
        // Given a body exactly as large as the limit
        let request = try Self.bytes(Self.mebibyte, chunked: chunked, tag: uniqueTag(), limit: Self.mebibyte)
        // When it is requested
        let response = try await Session().response(for: request)
        // Then it arrives whole
        #expect(response.body.count == Self.mebibyte)
    }

    @Test func sessionLimitAppliesByDefault() async throws {
        // Given a session whose limit is 1000 bytes and a body of 1001
        var configuration = Session.Configuration()
        configuration.maximumBodySize = 1000
        let request = try Self.bytes(1001, chunked: true, tag: uniqueTag(), limit: nil)
        // When it is requested
        // Then it fails with bodyTooLarge
        let error = await #expect(throws: FetchError.self) {
            try await Session(configuration: configuration).response(for: request)
        }
        #expect(error?.code == .bodyTooLarge)
    }

    @Test func largeAndRefusedBodiesInAProcessOfTheirOwn() async throws {
        // Given a child process that runs nothing but the large-body requests: their peak memory
        // is then their own, and their fast transfers cannot slow this process's other requests
        // (a fast transfer on one URLSession delays requests on every other one in the process)
        let servers = try LoopbackServers.require()
        // When it runs them
        let outcome = try await IsolatedRun.run("IsolatedLimitTests/", faultServer: servers.faults)
        // Then they passed there
        let measures = outcome.lines(from: "measured:")
        for line in measures { print(line) }
        #expect(outcome.status == 0, "\(outcome.output.suffix(3000))")
        #expect(measures.count == 4)
    }

    @Test(arguments: [1, 2, 4])
    func connectionsPerHostAreBounded(limit: Int) async throws {
        // Given a session allowing `limit` connections per host, and 8 slow requests at once
        let servers = try LoopbackServers.require()
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = limit
        let session = Session(configuration: configuration)
        let group = uniqueTag()
        let request = BasicRequest(url: servers.faults.url("/slow?seconds=0.3&group=\(group)"))
        // When they are all performed
        try await withThrowingTaskGroup(of: Int.self) { tasks in
            for _ in 0..<8 { tasks.addTask { try await session.response(for: request).status } }
            for try await status in tasks { #expect(status == 200) }
        }
        // Then the server never ran more than `limit` of them at once
        let most = try await servers.faults.mostAtOnce(group: group)
        #expect(most >= 1 && most <= limit)
        print("maximumConnectionsPerHost \(limit): at most \(most) of 8 requests ran at once")
    }
}

/// The part of ``LimitTests`` that runs in a child process of its own (see ``IsolatedRun``),
/// one test at a time so that each peak is its own.
@Suite(.serialized)
struct IsolatedLimitTests {
    static let mebibyte = 1024 * 1024
    static let isChild = IsolatedRun.isChild(named: "IsolatedLimitTests/")

    @Test(.enabled(if: isChild), arguments: [false, true])
    func twoHundredMebibytes(chunked: Bool) async throws {
        // Given a 200 MiB body (with Content-Length, or chunked) and a limit raised to 256 MiB
        let size = 200 * Self.mebibyte
        var request = BasicRequest(
            url: try IsolatedRun.faultServer(path: "/bytes?n=\(size)&chunked=\(chunked ? 1 : 0)"))
        request.options.maximumBodySize = 256 * Self.mebibyte
        ProcessMemory.resetPeak()
        let baseline = try #require(ProcessMemory.resident)
        // When it is requested
        let response = try await Session().response(for: request)
        let peak = try #require(ProcessMemory.peak)
        // Then every byte arrives in order (byte i is i % 256)
        #expect(response.body.count == size)
        #expect(Self.followsPattern(response.body))
        // And the process held about one copy of it at the most
        let growth = peak - baseline
        print(
            "measured: 200 MiB body (\(chunked ? "chunked" : "Content-Length")): peak resident memory grew by "
                + "\(growth / Self.mebibyte) MiB (from \(baseline / Self.mebibyte) MiB to \(peak / Self.mebibyte) MiB)")
        if !ProcessMemory.underThreadSanitizer {
            #expect(growth < size + size / 2, "more than one copy of the body was held at once")
        }
    }

    @Test(.enabled(if: isChild), arguments: [false, true])
    func bodyOverTheLimitFailsWithoutReadingTheRest(chunked: Bool) async throws {
        // Given a 4 GiB body (announced by Content-Length, or chunked with no length) sent at
        // 100 MiB/s, about a 1 Gbit/s link, and a 1 MiB limit. (At loopback speed URLSession
        // reads faster than its delegate queue can take the data, with no backpressure, and a
        // cancel can take seconds to land under load: how much more arrives is then the
        // machine's, not the session's, and is no use as a bound.)
        let tag = uniqueTag()
        var request = BasicRequest(
            url: try IsolatedRun.faultServer(
                path: "/bytes?n=\(4 << 30)&chunked=\(chunked ? 1 : 0)&rate=100&tag=\(tag)"
            ))
        request.options.maximumBodySize = Self.mebibyte
        ProcessMemory.resetPeak()
        let baseline = try #require(ProcessMemory.resident)
        let clock = ContinuousClock()
        let start = clock.now
        // When it is requested
        let error = await #expect(throws: FetchError.self) { try await Session().response(for: request) }
        let elapsed = clock.now - start
        // Then it fails at once with bodyTooLarge naming the URL
        #expect(error?.code == .bodyTooLarge)
        #expect(error?.url?.path == "/bytes")
        // (The thread sanitizer slows every callback several times over, and the server keeps
        // sending at 100 MiB/s meanwhile: there the bounds only say the rest was not read.)
        let sanitized = ProcessMemory.underThreadSanitizer
        #expect(elapsed < .seconds(sanitized ? 20 : 5))
        // And the transfer stopped soon after: the server saw the client leave, and what
        // arrived meanwhile was dropped, not kept
        let aborted = try #require(try await Self.abortedTransfer(tag: tag))
        let growth = try #require(ProcessMemory.peak) - baseline
        #expect((aborted.sent ?? .max) < (sanitized ? 3 << 30 : 256 * Self.mebibyte))
        if !sanitized {
            #expect(growth < 64 * Self.mebibyte)
        }
        print(
            "measured: 4 GiB body at 100 MiB/s over a 1 MiB limit (\(chunked ? "chunked" : "Content-Length")): "
                + "failed after \(elapsed); the server had sent \((aborted.sent ?? 0) / Self.mebibyte) MiB when the client "
                + "left; peak resident memory grew by \(growth / Self.mebibyte) MiB")
    }

    /// Waits until the fault server logs that the client left the transfer tagged `tag`: at
    /// the latest when its 10 s send timeout fires on a client that stopped reading.
    static func abortedTransfer(tag: String) async throws -> SeenRequest? {
        let log = BasicRequest(url: try IsolatedRun.faultServer(path: "/_seen?tag=\(tag)"))
        for _ in 0..<150 {
            let seen = try await Session().perform(log, decoding: [SeenRequest].self, using: JSONDecoder())
            if let entry = seen.first(where: { $0.aborted != nil }) { return entry }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// Whether byte `i` of `body` is `i % 256` throughout.
    static func followsPattern(_ body: Data) -> Bool {
        let pattern = Data((0..<mebibyte).map { UInt8(truncatingIfNeeded: $0) })
        return body.withUnsafeBytes { bytes in
            pattern.withUnsafeBytes { expected in
                var offset = 0
                while offset < bytes.count {
                    let length = min(mebibyte, bytes.count - offset)
                    if memcmp(bytes.baseAddress! + offset, expected.baseAddress!, length) != 0 { return false }
                    offset += length
                }
                return true
            }
        }
    }
}
