import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// A stream whose reader stops: the body goes on being read into the stream's buffer and
/// spill file, so every other request of the process goes on too, and the reader gets the
/// whole body when it reads on. It runs in the timed suites' process, beside their tests (see
/// ``TimedTests``): a stream that made URLSession's shared work queue wait would stall them
/// all. The bodies come at 20 MiB/s: at full loopback speed any transfer keeps that queue
/// busy enough to delay every other request of the process by seconds, reader or not.
@Suite(.loopbackServers, .enabled(if: TimedProcess.isChild))
struct StoppedReaderTests {
    /// The longest a small request may take while the reader is stopped: milliseconds in a
    /// quiet process; the suite's heavy tests beside it on two cores can add seconds.
    static let bound: Duration = .seconds(ProcessMemory.underThreadSanitizer ? 20 : 5)
    /// The stream's idle timeout, which the stopped reader outwaits. A quiet process gets the
    /// server's bytes every few milliseconds, but every integration suite starts at the same
    /// moment on two cores, beside transfers at full loopback speed on the work queue all
    /// sessions share: under the thread sanitizer the bytes once stopped for over 1 s after
    /// 3 MiB (1 run of 3 on a fresh clone), and in a coverage build on a quiet machine for over
    /// 1 s after 15 MiB (1 run of 4). So it allows 2 s, and 4 s under the sanitizer.
    static let idle: Duration = .seconds(ProcessMemory.underThreadSanitizer ? 4 : 2)

    @Test func aStoppedReaderHoldsUpNoOtherRequestAndGetsTheWholeBodyLater() async throws {
        // Given a 16 MiB body at 20 MiB/s streamed with a 64 KiB buffer and a short idle
        // timeout, whose reader takes one chunk and stops
        let servers = try LoopbackServers.require()
        let count = 16 << 20
        let session = StreamTests.session(idle: Self.idle)
        let stream = try await session.stream(
            StreamTests.get(servers.faults, "/bytes?n=\(count)&rate=20"), bufferSize: 64 << 10)
        var chunks = stream.chunks.makeAsyncIterator()
        var received = 0
        var misplaced = 0
        func take(_ chunk: Data) {
            if chunk.first != UInt8(received % 256) || chunk.last != UInt8((received + chunk.count - 1) % 256) {
                misplaced += 1
            }
            received += chunk.count
        }
        take(try #require(try await chunks.next()))

        // When a small request goes out on the same session and on another one, then the
        // reader waits past the idle timeout, then reads on
        let clock = ContinuousClock()
        let start = clock.now
        let same = try await session.response(for: StreamTests.get(servers.httpbin, "/get"))
        let sameTook = clock.now - start
        let other = try await StreamTests.session().response(for: StreamTests.get(servers.httpbin, "/get"))
        let otherTook = clock.now - start - sameTook
        try await Task.sleep(for: Self.idle + .milliseconds(500))
        while let chunk = try await chunks.next() { take(chunk) }

        // Then both requests completed at once, and the whole body came, in order: waiting
        // for the reader is not idleness, and nothing was dropped
        #expect(same.status == 200)
        #expect(other.status == 200)
        #expect(sameTook < Self.bound, "the same session's request took \(sameTook)")
        #expect(otherTook < Self.bound, "another session's request took \(otherTook)")
        #expect(received == count)
        #expect(misplaced == 0)
    }

    @Test func aReaderTooFarBehindGetsWhatWasKeptThenBodyTooLarge() async throws {
        // Given a 16 MiB body at 20 MiB/s streamed with a 64 KiB buffer and a 1 MiB spill
        // file, whose reader stops after its first chunk until the transfer has ended
        let servers = try LoopbackServers.require()
        let tag = UUID().uuidString
        let stream = try await StreamTests.session().stream(
            StreamTests.get(servers.faults, "/bytes?n=\(16 << 20)&rate=20&tag=\(tag)"), bufferSize: 64 << 10,
            spillLimit: 1 << 20)
        var chunks = stream.chunks.makeAsyncIterator()
        var received = try #require(try await chunks.next()).count
        _ = try await StreamTests.waitForEnd(of: tag, on: servers.faults)

        // When it reads on
        let error = await #expect(throws: FetchError.self) {
            while let chunk = try await chunks.next() { received += chunk.count }
        }

        // Then it got what the buffer and the file kept, then bodyTooLarge
        #expect(error?.code == .bodyTooLarge)
        #expect(received >= 1 << 20)
        #expect(received <= (1 << 20) + (64 << 10) + (64 << 10))
    }
}
