import Foundation
import Testing
import Fetch

/// A finished call lets go of its completion and of everything the completion holds: no
/// call's state outlives it (a download's state holds a 256 KiB write buffer).
@Suite(.loopbackServers)
struct FinishedCallReleaseTests {
    /// Something a completion holds, which says when it is freed.
    final class Canary: Sendable {
        private let freed: DispatchSemaphore
        init(_ freed: DispatchSemaphore) { self.freed = freed }
        deinit { freed.signal() }
        func sing() {}
    }

    /// What became of a call and of the canary its completion held.
    struct Fate: Equatable {
        var completed = false
        var canaryFreed = false
    }

    /// Starts a call with `start`, handing it a completion that holds a canary, and drops the
    /// call's handle, as a caller that ignores it does, or keeps it (`keepingHandle`), as an
    /// app that may cancel does; then waits up to 10 s for the completion and 10 s more for
    /// the canary to be freed, and cancels a kept handle, which must do nothing by then. On a
    /// thread of its own: making a task may wait for URLSession's work queue.
    static func fate(
        keepingHandle: Bool = false,
        _ start: @escaping @Sendable (_ completion: @escaping @Sendable () -> Void) -> any Cancellable
    ) async -> Fate {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let freed = DispatchSemaphore(value: 0)
                let completed = DispatchSemaphore(value: 0)
                var kept: (any Cancellable)?
                do {
                    let canary = Canary(freed)
                    let handle = start {
                        canary.sing()
                        completed.signal()
                    }
                    if keepingHandle { kept = handle }
                }
                var fate = Fate()
                fate.completed = completed.wait(timeout: .now() + 10) == .success
                fate.canaryFreed = freed.wait(timeout: .now() + 10) == .success
                kept?.cancel()
                continuation.resume(returning: fate)
            }
        }
    }

    @Test func aFinishedDownloadLetsGoOfItsCompletion() async throws {
        let servers = try LoopbackServers.require()
        // Given a download of 64 KiB to a file, whose completion holds a canary
        let folder = try ScratchFolder()
        let session = Session()
        let request = BasicRequest(url: servers.faults.url("/bytes?size=65536"))
        // When it finishes and the caller has dropped its handle
        let fate = await Self.fate { done in
            session.download(request, to: .file(folder.file("small.bin")), progress: nil) { _ in done() }
        }
        // Then the canary is freed: the download's state did not outlive it
        #expect(fate == Fate(completed: true, canaryFreed: true))
    }

    @Test func aFinishedDownloadWhoseHandleIsKeptLetsGoOfItsCompletion() async throws {
        let servers = try LoopbackServers.require()
        // Given a download whose handle the caller keeps, as an app that offers to pause does
        let folder = try ScratchFolder()
        let session = Session()
        let request = BasicRequest(url: servers.faults.url("/bytes?size=65536"))
        // When it finishes
        let fate = await Self.fate(keepingHandle: true) { done in
            session.download(request, to: .file(folder.file("kept.bin")), progress: nil) { _ in done() }
        }
        // Then the canary is freed all the same, and cancelling the finished download did nothing
        #expect(fate == Fate(completed: true, canaryFreed: true))
        #expect(FileManager.default.fileExists(atPath: folder.file("kept.bin").path))
    }

    @Test func aFinishedUploadLetsGoOfItsCompletion() async throws {
        let servers = try LoopbackServers.require()
        // Given an upload with progress, whose completion holds a canary
        let session = Session()
        let request = BasicRequest(url: servers.faults.url("/echo"), method: .post, body: .data(Data(count: 4096)))
        // When it finishes
        let fate = await Self.fate { done in
            session.upload(request, progress: { _ in }) { _ in done() }
        }
        // Then the canary is freed
        #expect(fate == Fate(completed: true, canaryFreed: true))
    }

    @Test func aFinishedStreamLetsGoOfItsCallbacks() async throws {
        let servers = try LoopbackServers.require()
        // Given a streamed call whose completion holds a canary
        let session = Session()
        let request = BasicRequest(url: servers.faults.url("/bytes?size=65536"))
        // When it finishes
        let fate = await Self.fate { done in
            session.stream(request, onChunk: { _ in }) { _ in done() }
        }
        // Then the canary is freed: the stream's sink and the call's state did not outlive it
        #expect(fate == Fate(completed: true, canaryFreed: true))
    }

    @Test func aFinishedCallLetsGoOfItsCompletion() async throws {
        let servers = try LoopbackServers.require()
        // Given a plain call whose completion holds a canary
        let session = Session()
        let request = BasicRequest(url: servers.faults.url("/status?code=204"))
        // When it finishes
        let fate = await Self.fate { done in
            session.perform(request) { _ in done() }
        }
        // Then the canary is freed
        #expect(fate == Fate(completed: true, canaryFreed: true))
    }

    @Test func aFinishedCallWhoseHandleIsKeptLetsGoOfItsCompletion() async throws {
        let servers = try LoopbackServers.require()
        // Given a plain call whose handle the caller keeps
        let session = Session()
        let request = BasicRequest(url: servers.faults.url("/status?code=204"))
        // When it finishes
        let fate = await Self.fate(keepingHandle: true) { done in
            session.perform(request) { _ in done() }
        }
        // Then the canary is freed all the same: the handle does not hold the call's state
        #expect(fate == Fate(completed: true, canaryFreed: true))
    }

    @Test func aFinishedStreamWhoseHandleIsKeptLetsGoOfItsCallbacks() async throws {
        let servers = try LoopbackServers.require()
        // Given a streamed call whose handle the caller keeps
        let session = Session()
        let request = BasicRequest(url: servers.faults.url("/bytes?size=65536"))
        // When it finishes
        let fate = await Self.fate(keepingHandle: true) { done in
            session.stream(request, onChunk: { _ in }) { _ in done() }
        }
        // Then the canary is freed all the same: the handle does not hold the stream's sink
        #expect(fate == Fate(completed: true, canaryFreed: true))
    }

    @Test func aFinishedRetriedCallWhoseHandleIsKeptLetsGoOfItsCompletion() async throws {
        let servers = try LoopbackServers.require()
        // Given a session that retries, and a call whose handle the caller keeps
        let api = Session().retrying(.exponential(maxAttempts: 2))
        let request = BasicRequest(url: servers.faults.url("/status?code=204"))
        // When it finishes
        let fate = await Self.fate(keepingHandle: true) { done in
            api.perform(request) { _ in done() }
        }
        // Then the canary is freed: the retry loop behind the handle is gone
        #expect(fate == Fate(completed: true, canaryFreed: true))
    }
}
