import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// The partial file of a download on disk: locked while written, checked before it is
/// moved into place.
struct StagedDownloadTests {
    let request = BasicRequest(url: URL(string: "https://example.com/big.bin")!)

    func stage(_ destination: DownloadDestination) throws -> StagedDownload {
        var urlRequest = URLRequest(url: request.url)
        return try StagedDownload(destination, for: request, sending: &urlRequest)
    }

    @Test func aSecondDownloadToTheSameDestinationFailsWhileTheFirstWrites() throws {
        // Given a download writing to a destination
        let folder = try TemporaryFolder()
        let destination = DownloadDestination.file(folder.file("big.bin"))
        let first = try stage(destination)
        // When another one starts for the same destination
        // Then it fails with a named error, and the first one's partial file cannot be discarded meanwhile
        #expect { _ = try stage(destination) } throws: {
            ($0 as? FetchError)?.code == .file && "\($0)".contains("under way")
        }
        #expect(PartialDownload.discard(for: folder.file("big.bin")) == false)
        // When the first one is done, the name is free again
        first.end(keeping: false)
        let second = try stage(destination)
        second.end(keeping: false)
        #expect(try folder.contents() == [])
    }

    @Test func aLockHeldForAMomentElsewhereIsWaitedFor() throws {
        // Given a partial file locked through another descriptor, as a process being started
        // holds a copy of it until it runs its program
        let folder = try TemporaryFolder()
        let path = folder.file("big.bin.fetchpart").path
        let holder = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        let taker = open(path, O_RDWR | O_CLOEXEC)
        defer { close(taker) }
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
        // When the lock is taken and the holder lets go during the first pause
        var pauses = 0
        let taken = FileLock.take(taker) {
            pauses += 1
            if pauses == 1 { close(holder) }
        }
        // Then the lock is taken after that one pause, not refused
        #expect(taken)
        #expect(pauses == 1)
    }

    @Test func aLockHeldThroughoutIsRefusedAfterEveryRetry() throws {
        // Given a partial file locked through another descriptor that keeps it
        let folder = try TemporaryFolder()
        let path = folder.file("big.bin.fetchpart").path
        let holder = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        let taker = open(path, O_RDWR | O_CLOEXEC)
        defer {
            close(taker)
            close(holder)
        }
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)
        // When the lock is taken
        var pauses = 0
        let taken = FileLock.take(taker) { pauses += 1 }
        // Then it is refused once every retry found it held
        #expect(!taken)
        #expect(pauses == FileLock.retries)
    }

    @Test func aResumedFileWhoseLengthIsNotTheAnnouncedOneIsNotMovedIntoPlace() throws {
        // Given a partial file of 10 bytes
        let folder = try TemporaryFolder()
        let staged = try stage(.file(folder.file("big.bin")))
        try staged.append(Data(count: 10))
        // When it is committed as a body of 20 bytes
        #expect { _ = try staged.commit(length: 20) } throws: { ($0 as? FetchError)?.code == .badServerResponse }
        // Then nothing is left: no destination, no partial file
        #expect(try folder.contents() == [])
    }

    @Test func aStaleRangeIsTakenOutOfTheRequest() throws {
        // Given a request that asks for a partial file no longer on disk
        let folder = try TemporaryFolder()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.setValue("bytes=400-", forHTTPHeaderField: "Range")
        urlRequest.setValue("\"v1\"", forHTTPHeaderField: "If-Range")
        // When the download is staged
        let staged = try StagedDownload(.file(folder.file("big.bin")), for: request, sending: &urlRequest)
        defer { staged.end(keeping: false) }
        // Then it starts from the first byte
        #expect(staged.resume == nil)
        #expect(urlRequest.value(forHTTPHeaderField: "Range") == nil)
        #expect(urlRequest.value(forHTTPHeaderField: "If-Range") == nil)
    }

    @Test func aRequestWithItsOwnRangeIsLeftAlone() throws {
        // Given a kept partial download, and a request that sets its own Range
        let folder = try TemporaryFolder()
        _ = try ResumeRulesTests.partial(400, of: 1000, in: folder)
        var urlRequest = URLRequest(url: request.url)
        urlRequest.setValue("bytes=0-99", forHTTPHeaderField: "Range")
        let before = urlRequest
        // When Fetch would ask for the rest; Then the caller's Range stays, and no If-Range is added
        urlRequest.askForRest(of: .file(folder.file("big.bin")))
        #expect(urlRequest == before)
        // While a request without one gets the rest
        var plain = URLRequest(url: request.url)
        plain.askForRest(of: .file(folder.file("big.bin")))
        #expect(plain.value(forHTTPHeaderField: "Range") == "bytes=400-")
    }

    @Test func whatCannotBeOpenedIsNotDiscarded() throws {
        // Given a partial download's place taken by something that cannot be opened for writing (a folder)
        let folder = try TemporaryFolder()
        let bytes = folder.file("big.bin").path + ".fetchpart"
        try FileManager.default.createDirectory(atPath: bytes, withIntermediateDirectories: false)
        // When it is discarded
        let discarded = PartialDownload.discard(for: folder.file("big.bin"))
        // Then it says something is left, and it is
        #expect(!discarded)
        #expect(FileManager.default.fileExists(atPath: bytes))
    }

    @Test func discardingWhatIsNotThereSucceeds() throws {
        // Given an empty folder; When its partial download is discarded; Then there is nothing left
        let folder = try TemporaryFolder()
        #expect(PartialDownload.discard(for: folder.file("none.bin")))
        #expect(PartialDownload.existing(for: folder.file("none.bin")) == nil)
    }
}
