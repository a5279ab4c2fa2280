import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch
import TestSupport

/// Resumable downloads through `Session` against real servers: the fault server's ranged
/// resources (cut mid-body, ignoring ranges, changing between requests) and httpbin's
/// `/range/N` and `/bytes/N`.
@Suite(.loopbackServers)
struct ResumeTests {
    /// Larger than the 256 KiB a download gathers before writing, so a cut leaves bytes that
    /// must be written out before the partial file is kept.
    static let size = 400_000
    static let cut = 300_000

    /// A session that retries after 10 ms, three attempts in all.
    static var retrying: LayeredPerformer {
        Session().retrying(.constant(maxAttempts: 3, delay: .milliseconds(10)))
    }

    /// The bytes of the fault server's ranged resource: byte i is (i + version) % 256.
    static func resource(_ count: Int = size, version: Int = 0) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 + version) })
    }

    @Test func aRetryResumesADownloadCutMidBodyAndTheFileIsTheWholeBody() async throws {
        // Given a resource whose first transfer breaks off after 300,000 of its 400,000 bytes
        let faults = try LoopbackServers.require().faults
        let folder = try ScratchFolder()
        let tag = uniqueTag()
        let log = ProgressLog()
        let request = BasicRequest(url: faults.url("/ranged?n=\(Self.size)&cut=\(Self.cut)&tag=\(tag)"))

        // When it is downloaded through a retry policy
        let file = try await Self.retrying.download(request, to: .file(folder.file("big.bin")), progress: log.record)

        // Then the second request asked only for the rest, guarded by the first one's ETag
        let seen = try await faults.seen(tag: tag)
        #expect(seen.map { $0.header("range") } == [nil, "bytes=\(Self.cut)-"])
        #expect(seen.last?.header("if-range") == "\"v0-\(Self.size)\"")
        // And the file is the whole body, with nothing else left beside it
        #expect(file.status == 206)
        #expect(try Data(contentsOf: file.fileURL) == Self.resource())
        #expect(try folder.contents() == ["big.bin"])
        // And progress went on from the 300,000 bytes on disk, out of the whole length
        let resumed = try #require(
            log.all.firstIndex(of: TransferProgress(completedBytes: Int64(Self.cut), expectedBytes: Int64(Self.size))))
        #expect(
            log.all[resumed...].allSatisfy {
                $0.completedBytes >= Int64(Self.cut) && $0.expectedBytes == Int64(Self.size)
            })
        #expect(log.all.last == .finished(Int64(Self.size)))
    }

    @Test func aLostConnectionKeepsThePartialFileForTheNextDownload() async throws {
        // Given a download that breaks off after 300,000 bytes, with no retry
        let faults = try LoopbackServers.require().faults
        let folder = try ScratchFolder()
        let destination = folder.file("big.bin")
        let request = BasicRequest(url: faults.url("/ranged?n=\(Self.size)&cut=\(Self.cut)&tag=\(uniqueTag())"))
        let session = Session()
        await #expect { _ = try await session.download(request, to: .file(destination)) } throws: {
            ($0 as? FetchError)?.code == .connectionLost
        }
        // Then the bytes that arrived wait next to the destination, all written out
        #expect(PartialDownload.existing(for: destination)?.receivedBytes == Int64(Self.cut))
        #expect(try folder.contents() == ["big.bin.fetchpart", "big.bin.fetchpart.json"])

        // When the same file is downloaded again
        let file = try await session.download(request, to: .file(destination))

        // Then it resumed, and the file is whole
        #expect(file.status == 206)
        #expect(try Data(contentsOf: destination) == Self.resource())
        #expect(try folder.contents() == ["big.bin"])
    }

    @Test func aServerThatIgnoresRangeRestartsTheFileFromZero() async throws {
        // Given a server that cuts the first transfer and answers every Range with the whole body
        let faults = try LoopbackServers.require().faults
        let folder = try ScratchFolder()
        let tag = uniqueTag()
        let request = BasicRequest(url: faults.url("/ranged-ignoring?n=\(Self.size)&cut=\(Self.cut)&tag=\(tag)"))
        // When a retry resumes it
        let file = try await Self.retrying.download(request, to: .file(folder.file("big.bin")))
        // Then the 200 replaced the partial file rather than following it
        #expect(try await faults.seen(tag: tag).map { $0.header("range") } == [nil, "bytes=\(Self.cut)-"])
        #expect(file.status == 200)
        #expect(try Data(contentsOf: file.fileURL) == Self.resource())
        #expect(try folder.contents() == ["big.bin"])
    }

    @Test func aResourceWhoseETagChangedIsDownloadedAgainWhole() async throws {
        // Given a resource that changes between requests, the first one cut
        let faults = try LoopbackServers.require().faults
        let folder = try ScratchFolder()
        let tag = uniqueTag()
        let request = BasicRequest(url: faults.url("/ranged-changing?n=\(Self.size)&cut=\(Self.cut)&tag=\(tag)"))
        // When a retry resumes it
        let file = try await Self.retrying.download(request, to: .file(folder.file("big.bin")))
        // Then If-Range named the old version, the server sent the new one whole, and the file is the new one
        let seen = try await faults.seen(tag: tag)
        #expect(seen.last?.header("if-range") == "\"v0-\(Self.size)\"")
        #expect(file.status == 200)
        #expect(file.response.headers["ETag"] == "\"v1-\(Self.size)\"")
        #expect(try Data(contentsOf: file.fileURL) == Self.resource(version: 1))
    }

    @Test func a416ThatNamesThePartialFilesSizeFinishesTheDownload() async throws {
        // Given a chunked body (no length announced) whose every byte arrives, but not its last chunk
        let faults = try LoopbackServers.require().faults
        let folder = try ScratchFolder()
        let tag = uniqueTag()
        let count = 100_000
        let request = BasicRequest(url: faults.url("/ranged?n=\(count)&cut=\(count)&chunked=1&tag=\(tag)"))
        // When a retry asks for what follows
        let file = try await Self.retrying.download(request, to: .file(folder.file("big.bin")))
        // Then the server's 416 says there is nothing more, and the file is whole
        #expect(try await faults.seen(tag: tag).map { $0.header("range") } == [nil, "bytes=\(count)-"])
        #expect(file.status == 200)
        #expect(try Data(contentsOf: file.fileURL) == Self.resource(count))
        #expect(try folder.contents() == ["big.bin"])
    }

    @Test func a416ForAnotherLengthStartsOverWithinTheCall() async throws {
        // Given a kept partial file longer than the resource (of unknown length when kept)
        let faults = try LoopbackServers.require().faults
        let folder = try ScratchFolder()
        let destination = folder.file("big.bin")
        let tag = uniqueTag()
        let count = 1000
        let request = BasicRequest(url: faults.url("/ranged?n=\(count)&tag=\(tag)"))
        let head = Response(urlRequest: URLRequest(url: request.url), status: 200, headers: ["ETag": "\"v0-\(count)\""])
        #expect(try DownloadDestination.file(destination).keepPartial(Data(count: 1500), of: head, for: request))
        // When it is downloaded
        let file = try await Session().download(request, to: .file(destination))
        // Then the 416 made it start over at once, without Range, in the same call
        #expect(try await faults.seen(tag: tag).map { $0.header("range") } == ["bytes=1500-", nil])
        #expect(file.status == 200)
        #expect(try Data(contentsOf: destination) == Self.resource(count))
        #expect(try folder.contents() == ["big.bin"])
    }

    @Test func aContentRangeThatDoesNotMatchTheRequestFailsWithoutAFile() async throws {
        // Given a server whose 206 starts 7 bytes after the byte asked for
        let faults = try LoopbackServers.require().faults
        let folder = try ScratchFolder()
        let request = BasicRequest(url: faults.url("/ranged?n=\(Self.size)&cut=\(Self.cut)&shift=7&tag=\(uniqueTag())"))
        // When a retry resumes the cut download; Then it fails with a named error
        let error = await #expect(throws: FetchError.self) {
            try await Self.retrying.download(request, to: .file(folder.file("big.bin")))
        }
        #expect(error?.code == .badServerResponse)
        #expect(error?.description.contains("bytes 300007-") == true)
        // And neither a corrupt file nor the partial one is left
        #expect(try folder.contents() == [])
    }

    @Test func aCancelKeepingThePartialFileLetsTheNextDownloadResumeWhereItStopped() async throws {
        // Given a resource of 102,400 bytes whose first transfer sends 10,240 of them and then
        // nothing more until the caller leaves
        let faults = try LoopbackServers.require().faults
        let folder = try ScratchFolder()
        let destination = folder.file("ranged.bin")
        let count = 102_400
        let request = BasicRequest(url: faults.url("/ranged?n=\(count)&cut=10240&hold=1&tag=\(uniqueTag())"))
        let session = Session()
        // When the caller stops it keeping what it has, from its progress callback once 10 KiB arrived
        let result = try await within("the stopped download") {
            await Self.stopKeepingPartial(session, request, to: destination, after: 10_240)
        }
        #expect((result.failure as? FetchError)?.code == .cancelled)
        let kept = try #require(PartialDownload.existing(for: destination))
        #expect(kept.receivedBytes == 10_240)
        #expect(kept.expectedBytes == Int64(count))

        // And downloads it again
        let log = ProgressLog()
        let file = try await session.download(request, to: .file(destination), progress: log.record)

        // Then it resumed where it stopped, and the file is the whole body
        #expect(file.status == 206)
        #expect(file.response.headers["Content-Range"] == "bytes 10240-102399/102400")
        #expect(log.all.first?.completedBytes == 10_240)
        #expect(try Data(contentsOf: destination) == Self.resource(count))
        #expect(try folder.contents() == ["ranged.bin"])
    }

    @Test func httpbinRangeResumesAKeptPartialFile() async throws {
        // Given the first 10,240 bytes of httpbin's /range/102400 kept with its ETag
        let httpbin = try LoopbackServers.require().httpbin
        let folder = try ScratchFolder()
        let destination = folder.file("range.bin")
        let request = BasicRequest(url: httpbin.url("/range/102400"))
        let expected = Data((0..<102_400).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        let head = Response(urlRequest: URLRequest(url: request.url), status: 200, headers: ["ETag": "range102400"])
        #expect(try DownloadDestination.file(destination).keepPartial(expected.prefix(10_240), of: head, for: request))

        // When it is downloaded
        let log = ProgressLog()
        let file = try await Session().download(request, to: .file(destination), progress: log.record)

        // Then httpbin sent the rest as a 206, and the file is its whole body
        #expect(file.status == 206)
        #expect(file.response.headers["Content-Range"] == "bytes 10240-102399/102400")
        #expect(log.all.first?.completedBytes == 10_240)
        #expect(try Data(contentsOf: destination) == expected)
        #expect(try folder.contents() == ["range.bin"])
    }

    @Test func aResponseWithoutAValidatorIsNeverKept() async throws {
        // Given a response with no ETag or Last-Modified that sends 5 of its 100 bytes, then
        // nothing more until the caller leaves
        let faults = try LoopbackServers.require().faults
        let folder = try ScratchFolder()
        let destination = folder.file("five.bin")
        let request = BasicRequest(url: faults.url("/five-then-stall?part=body"))
        // When the caller stops it keeping what it has, once bytes have arrived
        let result = try await within("the stopped download") {
            await Self.stopKeepingPartial(Session(), request, to: destination, after: 1)
        }
        // Then nothing is kept: without a validator, a resume could mix two versions
        #expect((result.failure as? FetchError)?.code == .cancelled)
        #expect(PartialDownload.existing(for: destination) == nil)
        #expect(try folder.contents() == [])
    }

    /// Downloads `request` to `destination` and cancels it keeping the partial file from its
    /// progress callback, as soon as `bytes` have arrived (or as soon as the download's handle
    /// is there, when they arrived before it).
    /// - Returns: the download's result.
    static func stopKeepingPartial(
        _ session: Session, _ request: BasicRequest, to destination: URL,
        after bytes: Int64
    ) async -> Result<DownloadedFile, any Error> {
        let stop = LockedBox<(handle: DownloadHandle?, due: Bool)>((nil, false))
        return await withCheckedContinuation { done in
            let started = session.download(
                request, to: .file(destination),
                progress: { progress in
                    guard progress.completedBytes >= bytes else { return }
                    stop.withLock { stop in
                        stop.due = true
                        return stop.handle
                    }?.cancelKeepingPartial()
                }, completion: { done.resume(returning: $0) })
            let due = stop.withLock { stop in
                stop.handle = started
                return stop.due
            }
            if due { started.cancelKeepingPartial() }
        }
    }

    @Test func httpbinBytesDownloadsWholeWithoutAskingForARange() async throws {
        // Given httpbin's /bytes/N, which sends no validator, and a kept partial file of another URL
        let httpbin = try LoopbackServers.require().httpbin
        let folder = try ScratchFolder()
        let destination = folder.file("bytes.bin")
        let other = BasicRequest(url: httpbin.url("/range/1000"))
        let head = Response(urlRequest: URLRequest(url: other.url), status: 200, headers: ["ETag": "range1000"])
        #expect(try DownloadDestination.file(destination).keepPartial(Data(count: 100), of: head, for: other))
        // When /bytes/50000 is downloaded to the same destination, twice with the same seed
        let request = BasicRequest(url: httpbin.url("/bytes/50000?seed=7"))
        let file = try await Session().download(request, to: .file(destination))
        let again = try await Session().download(request, to: .temporaryFile(in: folder.url))
        // Then the partial file of the other URL was not resumed: each file is the whole body
        #expect(file.status == 200)
        #expect(try Data(contentsOf: destination).count == 50_000)
        #expect(try Data(contentsOf: destination) == Data(contentsOf: again.fileURL))
        #expect(PartialDownload.existing(for: destination) == nil)
    }
}
