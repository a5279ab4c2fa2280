import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// A stream whose reader pauses: Session holds URLSession's delivery, which stops the work
/// queue every session of the process shares, so it runs in a child process of its own
/// rather than stall the tests running beside it.
@Suite(.loopbackServers)
struct HeldStreamTests {
    @Test func aPausedReaderInAProcessOfItsOwn() async throws {
        // Given a child process that runs nothing but the paused reader
        let servers = try LoopbackServers.require()

        // When it runs it
        let outcome = try await IsolatedRun.run("IsolatedHeldStreamTests/", faultServer: servers.faults)

        // Then it passed there
        #expect(outcome.status == 0, "\(outcome.output.suffix(3000))")
        #expect(outcome.output.contains("aReaderThatPausesLongerThanTheIdleTimeoutIsNotTimedOut"))
    }
}

/// The part of ``HeldStreamTests`` that runs in a child process.
@Suite(.serialized)
struct IsolatedHeldStreamTests {
    @Test(.enabled(if: IsolatedRun.isChild(named: "IsolatedHeldStreamTests/")))
    func aReaderThatPausesLongerThanTheIdleTimeoutIsNotTimedOut() async throws {
        // Given a fast 32 MiB body, a 64 KiB buffer and an idle timeout of 1 s
        let count = 32 << 20
        var configuration = Session.Configuration()
        configuration.idleTimeout = .seconds(1)
        let request = BasicRequest(url: try IsolatedRun.faultServer(path: "/bytes?n=\(count)"))
        let stream = try await Session(configuration: configuration).stream(request, bufferSize: 64 << 10)

        // When the reader takes one chunk, pauses 3 s (the buffer fills and Session stops
        // reading), then reads the rest
        var received = 0
        for try await chunk in stream.chunks {
            if received == 0 { try await Task.sleep(for: .seconds(3)) }
            received += chunk.count
        }

        // Then the whole body came: waiting for the reader is not idleness
        #expect(received == count)
    }
}
