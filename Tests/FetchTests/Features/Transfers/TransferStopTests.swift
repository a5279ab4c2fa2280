import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch
import FetchTesting

/// A download the caller cancels: it writes nothing more, and its file is kept or deleted
/// before `cancel()` returns, so the next download to the same destination can start at once.
struct TransferStopTests {
    let request = BasicRequest(url: URL(string: "https://example.com/big.bin")!)

    /// A download to `file` that has taken a resumable 200 of 1,000 bytes and its first 100;
    /// cancelling it keeps the partial file when `keeping`.
    func downloading(to file: URL, keeping: Bool = false) throws -> TransferState {
        var urlRequest = URLRequest(url: request.url)
        let staged = try StagedDownload(.file(file), for: request, sending: &urlRequest)
        let keepsPartial = Locked(keeping)
        let transfer = TransferState(
            staged: staged, uploadFile: nil, uploadLength: nil, progress: nil, keepsPartial: keepsPartial,
            queue: DispatchQueue(label: "TransferStopTests"))
        let head = Response(
            request: request, urlRequest: urlRequest, status: 200,
            headers: ["Content-Length": "1000", "ETag": "\"v1\"", "Accept-Ranges": "bytes"])
        if case .accepted = transfer.open(head, expectedLength: 1000) {
        } else {
            Issue.record("the head was refused")
        }
        #expect(transfer.write(Data(count: 100)) == nil)
        return transfer
    }

    @Test func aStoppedDownloadIsDeletedAtOnceAndWritesNothingMore() throws {
        // Given a download under way
        let folder = try TemporaryFolder()
        let transfer = try downloading(to: folder.file("big.bin"))
        // When the caller cancels it, and more bytes arrive before the engine's cancel lands
        transfer.stop()
        #expect(transfer.write(Data(count: 100)) == nil)
        // Then nothing more is taken, and nothing is left on disk
        #expect(transfer.bodyBytes == 100)
        #expect(try folder.contents() == [])
        // And the next download to the same destination can start at once
        var urlRequest = URLRequest(url: request.url)
        let next = try StagedDownload(.file(folder.file("big.bin")), for: request, sending: &urlRequest)
        next.end(keeping: false)
    }

    @Test func aDownloadStoppedToBeKeptIsKeptWithWhatItGathered() throws {
        // Given a download under way, its 100 bytes still gathered in memory
        let folder = try TemporaryFolder()
        let transfer = try downloading(to: folder.file("big.bin"), keeping: true)
        // When the caller cancels it keeping the partial file, and the completion then closes it
        transfer.stop()
        transfer.close(keepingPartial: false)
        // Then the partial file and its record are kept, with the 100 bytes written out
        #expect(try folder.contents() == ["big.bin.fetchpart", "big.bin.fetchpart.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("big.bin.fetchpart").path)
        #expect(attributes[.size] as? Int == 100)
        #expect(PartialDownload.discard(for: folder.file("big.bin")))
    }

    @Test func aStoppedDownloadWhoseBodyHadAllArrivedIsNotMovedIntoPlace() throws {
        // Given a download under way
        let folder = try TemporaryFolder()
        let transfer = try downloading(to: folder.file("big.bin"))
        // When the caller cancels it just as its completion commits it
        transfer.stop()
        // Then it fails as cancelled, and nothing is left
        #expect { _ = try transfer.settle(Response.status(200)) } throws: { ($0 as? FetchError)?.code == .cancelled }
        transfer.close()
        #expect(try folder.contents() == [])
    }
}
