import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport

/// The rule for dropping a handle, over a real `Session` against the fault server's `/bytes`
/// (sent at 1 MiB/s, so a transfer is still under way when its handle goes): a `Transfer` or
/// a `ResponseStream` dropped cancels its call, and the server sees the client leave; a
/// callback call whose handle is dropped runs to its end.
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct DroppingAHandleSessionTests {
    /// A logging stack over a Session under the fault server's base URL, and its lines as
    /// they are written.
    private static func stack() throws -> (any RequestPerforming, AsyncStream<String>) {
        let servers = try LoopbackServers.require()
        let (lines, line) = AsyncStream<String>.makeStream()
        let api = Session().enhanced(by: BaseURL(servers.faults.url("/")))
            .logging(LogConfiguration(options: .all) { line.yield($0.message) })
        return (api, lines)
    }

    /// Waits for the fault server to log that the client left the transfer tagged `tag`.
    private static func aborted(tag: String) async throws -> SeenRequest? {
        let servers = try LoopbackServers.require()
        for _ in 0..<150 {
            if let entry = try await servers.faults.seen(tag: tag).first(where: { $0.aborted != nil }) { return entry }
            try await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// `/bytes` sending 20 MB at 1 MiB/s, tagged `tag`.
    private static func slowBytes(tag: String) -> BasicRequest {
        BasicRequest(url: URL(string: "bytes?n=20000000&rate=1&tag=\(tag)")!)
    }

    @Test(arguments: [CallKind.Name.download, .stream])
    func droppingATransferOrAStreamCancelsItsCall(kind: CallKind.Name) async throws {
        // Given a download (to a file) or a stream under way
        let (api, lines) = try Self.stack()
        let tag = uniqueTag()
        let file = try ownFolder().appendingPathComponent("dropped-\(tag)")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        if kind == .download {
            var transfer: Transfer<DownloadedFile>? = api.downloading(Self.slowBytes(tag: tag), to: .file(file))
            for await progress in transfer!.progress where progress.completedBytes > 0 { break }

            // When the last reference to it goes
            transfer = nil
            #expect(transfer == nil)
        } else {
            var stream: ResponseStream? = try await api.stream(Self.slowBytes(tag: tag))
            #expect(stream?.response.status == 200)

            // When the last reference to it goes
            stream = nil
            #expect(stream == nil)
        }

        // Then the server sees the client leave before the end, the log says why, and no
        // file is left at the destination or beside it
        let aborted = try #require(try await Self.aborted(tag: tag))
        #expect((aborted.sent ?? .max) < 20_000_000)
        let line = try #require(try await lines.next(within: standardBound, "the log line"))
        #expect(
            line.contains("handle dropped: its \(kind == .download ? "Transfer" : "ResponseStream") was dropped after"))
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(!FileManager.default.fileExists(atPath: file.path + ".fetchpart"))
    }

    @Test func aDownloadWhoseCallbackHandleIsDroppedRunsToItsEnd() async throws {
        // Given a download with a completion handler, whose handle is not kept
        let (api, _) = try Self.stack()
        let file = try ownFolder().appendingPathComponent("kept-\(uniqueTag())")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (ended, end) = AsyncStream<Result<DownloadedFile, any Error>>.makeStream()
        api.download(BasicRequest(url: URL(string: "bytes?n=300000&rate=1")!), to: .file(file), progress: nil) {
            end.yield($0)
        }

        // When it ends
        let outcome = try await ended.next(within: standardBound, "the download's completion")

        // Then the whole body is in the file
        let downloaded = try #require(try outcome?.get())
        #expect(try Data(contentsOf: downloaded.fileURL).count == 300_000)
    }
}

/// A new folder in the temporary folder, so that a download's partial file is never seen by
/// the tests that watch the temporary folder for Fetch's files; remove it when done.
func ownFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("own-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
