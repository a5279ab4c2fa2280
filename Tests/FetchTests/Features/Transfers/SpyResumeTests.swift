import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport

/// Resumable downloads over the spy: a cut first attempt, then a 206 for the rest, all
/// before the call returns.
struct SpyResumeTests {
    let request = BasicRequest(url: URL(string: "https://example.com/files/big.bin")!)
    /// 1000 bytes, each different from its neighbours.
    static let body = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) })
    static let head: HTTPHeaders = ["ETag": "\"v1\"", "Content-Length": "1000"]

    /// The first attempt: 400 of the 1000 bytes, then a lost connection.
    static var cut: SpyPerformer.Answer { .cutDownload(Response(status: 200, headers: head, body: body), after: 400) }

    /// A 206 with the bytes from `first` on.
    static func rest(from first: Int, etag: String = "\"v1\"") -> SpyPerformer.Answer {
        .response(
            Response(
                status: 206, headers: ["ETag": etag, "Content-Range": "bytes \(first)-999/1000"],
                body: body.suffix(from: first)))
    }

    @Test func aRetryResumesACutDownloadWithRangeAndIfRange() throws {
        // Given a spy that cuts the download after 400 bytes, then sends the rest, under a retry policy
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([Self.cut, Self.rest(from: 400)])
        let api = spy.retrying(.constant(maxAttempts: 3, delay: .seconds(1)), scheduler: ImmediateScheduler())
        let progress = Recorder<TransferProgress>()
        let result = Recorder<Result<DownloadedFile, any Error>>()

        // When the file is downloaded
        api.download(request, to: .file(folder.file("big.bin")), progress: progress.record, completion: result.record)

        // Then before `download` returned: the second attempt asked only for the rest, guarded by the tag
        let file = try #require(result.single).get()
        #expect(spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Range") } == [nil, "bytes=400-"])
        #expect(spy.urlRequests.map { $0?.value(forHTTPHeaderField: "If-Range") } == [nil, "\"v1\""])
        // And the file is the whole body, with nothing else left in the folder
        #expect(try Data(contentsOf: file.fileURL) == Self.body)
        #expect(file.status == 206)
        #expect(try folder.contents() == ["big.bin"])
        // And progress went on from the 400 bytes already there, out of 1000
        #expect(progress.all == [TransferProgress(completedBytes: 700, expectedBytes: 1000), .finished(1000)])
    }

    @Test func aLostConnectionKeepsThePartialFileAndTheNextDownloadResumesIt() throws {
        // Given a download cut after 400 bytes, with no retry
        let folder = try TemporaryFolder()
        let destination = folder.file("big.bin")
        let spy = SpyPerformer([Self.cut])
        let first = Recorder<Result<DownloadedFile, any Error>>()
        spy.download(request, to: .file(destination), progress: nil, completion: first.record)
        #expect(first.single?.failureCode == .connectionLost)

        // Then the 400 bytes and their record wait next to the destination
        let partial = try #require(PartialDownload.existing(for: destination))
        #expect(partial.receivedBytes == 400)
        #expect(partial.expectedBytes == 1000)
        #expect(try folder.contents() == ["big.bin.fetchpart", "big.bin.fetchpart.json"])

        // When the same file is downloaded again
        spy.enqueue(Self.rest(from: 400))
        let second = Recorder<Result<DownloadedFile, any Error>>()
        spy.download(request, to: .file(destination), progress: nil, completion: second.record)

        // Then it asked for the rest and the file is whole
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Range") == "bytes=400-")
        #expect(try Data(contentsOf: try #require(second.single).get().fileURL) == Self.body)
        #expect(try folder.contents() == ["big.bin"])
        #expect(PartialDownload.existing(for: destination) == nil)
    }

    @Test func aServerThatIgnoresTheRangeRestartsTheFileFromZero() throws {
        // Given a cut download, then a server that answers the Range with the whole body
        let folder = try TemporaryFolder()
        let whole = Response(status: 200, headers: Self.head, body: Self.body)
        let spy = SpyPerformer([Self.cut, .response(whole)])
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When a retry resumes it
        spy.retrying(.constant(delay: .zero), scheduler: ImmediateScheduler())
            .download(request, to: .file(folder.file("big.bin")), progress: nil, completion: result.record)
        // Then the file is the body once, not the 400 bytes followed by it
        let file = try #require(result.single).get()
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Range") == "bytes=400-")
        #expect(try Data(contentsOf: file.fileURL) == Self.body)
        #expect(try folder.contents() == ["big.bin"])
    }

    @Test func a416ThatNamesThePartialFilesSizeFinishesTheDownload() throws {
        // Given a body of unknown length whose every byte arrived before the connection broke
        let folder = try TemporaryFolder()
        let unknownLength = Response(status: 200, headers: ["ETag": "\"v1\""], body: Self.body)
        let satisfied = Response(status: 416, headers: ["Content-Range": "bytes */1000"])
        let spy = SpyPerformer([.cutDownload(unknownLength, after: 1000), .response(satisfied)])
        let progress = Recorder<TransferProgress>()
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When a retry asks for what follows
        spy.retrying(.constant(delay: .zero), scheduler: ImmediateScheduler())
            .download(request, to: .file(folder.file("big.bin")), progress: progress.record, completion: result.record)
        // Then the 416 says there is nothing more: the file is whole and the call succeeds
        let file = try #require(result.single).get()
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Range") == "bytes=1000-")
        #expect(file.status == 200)
        #expect(try Data(contentsOf: file.fileURL) == Self.body)
        #expect(progress.all.last == .finished(1000))
        #expect(try folder.contents() == ["big.bin"])
    }

    @Test func aPartialFileThatIsAlreadyWholeAsksForItsLastByteAgain() throws {
        // Given a body of announced length whose every byte arrived before the connection broke
        let folder = try TemporaryFolder()
        let lastByte = Response(
            status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 999-999/1000"],
            body: Self.body.suffix(1))
        let spy = SpyPerformer([
            .cutDownload(Response(status: 200, headers: Self.head, body: Self.body), after: 1000),
            .response(lastByte),
        ])
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When a retry resumes it
        spy.retrying(.constant(delay: .zero), scheduler: ImmediateScheduler())
            .download(request, to: .file(folder.file("big.bin")), progress: nil, completion: result.record)
        // Then it asked for the last byte, which a current resource answers with a 206, and the file is whole
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Range") == "bytes=999-")
        #expect(try Data(contentsOf: try #require(result.single).get().fileURL) == Self.body)
        #expect(try folder.contents() == ["big.bin"])
    }

    @Test func aResumedAttemptThatIsCutAgainKeepsWhatBothAttemptsReceived() throws {
        // Given a download cut after 400 bytes, a resumed attempt cut 300 bytes later, then the rest
        let folder = try TemporaryFolder()
        let part = Response(
            status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 400-999/1000"],
            body: Self.body.suffix(from: 400))
        let spy = SpyPerformer([Self.cut, .cutDownload(part, after: 300), Self.rest(from: 700)])
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When a retry policy with three attempts downloads it
        spy.retrying(.constant(maxAttempts: 3, delay: .zero), scheduler: ImmediateScheduler())
            .download(request, to: .file(folder.file("big.bin")), progress: nil, completion: result.record)
        // Then each attempt asked for what followed the bytes kept so far, and the file is whole
        #expect(spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Range") } == [nil, "bytes=400-", "bytes=700-"])
        #expect(try Data(contentsOf: try #require(result.single).get().fileURL) == Self.body)
        #expect(try folder.contents() == ["big.bin"])
    }

    @Test func anErrorStatusNeitherWritesNorKeepsAFile() throws {
        // Given a spy answering a download that asked for everything with a 416, and a cut 503
        let folder = try TemporaryFolder()
        let destination = DownloadDestination.file(folder.file("big.bin"))
        let spy = SpyPerformer([.status(416)])
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When the file is downloaded
        spy.download(request, to: destination, progress: nil, completion: result.record)
        // Then the status fails the call and nothing is on disk
        #expect(result.single?.failureCode == .httpStatus)
        #expect(try folder.contents() == [])
        // And a cut error body is not kept as a partial download
        let head = Response(urlRequest: URLRequest(url: request.url), status: 503, headers: ["ETag": "\"v1\""])
        #expect(try destination.keepPartial(Data("busy".utf8), of: head, for: request) == false)
        #expect(try folder.contents() == [])
    }

    @Test func aChangedResourceOrA416ForAnotherLengthDeletesThePartialFileAndTheNextCallStartsOver() throws {
        // Given a kept partial download, then a 206 of another version of the resource
        let folder = try TemporaryFolder()
        let destination = folder.file("big.bin")
        let spy = SpyPerformer([Self.cut, Self.rest(from: 400, etag: "\"v2\"")])
        spy.download(request, to: .file(destination), progress: nil) { _ in }
        let resumed = Recorder<Result<DownloadedFile, any Error>>()
        // When the next download resumes it
        spy.download(request, to: .file(destination), progress: nil, completion: resumed.record)
        // Then it fails with a named error and leaves nothing, so the next one starts from zero
        #expect(resumed.single?.failureCode == .badServerResponse)
        #expect(try folder.contents() == [])
        spy.enqueue(.response(Response(status: 200, headers: Self.head, body: Self.body)))
        let fresh = Recorder<Result<DownloadedFile, any Error>>()
        spy.download(request, to: .file(destination), progress: nil, completion: fresh.record)
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Range") == nil)
        #expect(try Data(contentsOf: try #require(fresh.single).get().fileURL) == Self.body)
    }

    @Test func aContentRangeThatDoesNotMatchTheRequestFailsAndWritesNoFile() throws {
        // Given a cut download, then a 206 that starts at byte 0 rather than 400
        let folder = try TemporaryFolder()
        let wrong = Response(
            status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 0-599/1000"],
            body: Self.body.prefix(600))
        let spy = SpyPerformer([Self.cut, .response(wrong)])
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When a retry resumes it
        spy.retrying(.constant(delay: .zero), scheduler: ImmediateScheduler())
            .download(request, to: .file(folder.file("big.bin")), progress: nil, completion: result.record)
        // Then the call fails with badServerResponse, and neither a corrupt file nor the partial one is left
        let error = try #require(result.single?.failure as? FetchError)
        #expect(error.code == .badServerResponse)
        #expect(error.description.contains("bytes 0-599/1000"))
        #expect(try folder.contents() == [])
    }

    @Test func aWeakETagIsNeverResumed() throws {
        // Given a download cut after 400 bytes whose response has only a weak tag
        let folder = try TemporaryFolder()
        let weak = Response(status: 200, headers: ["ETag": "W/\"v1\"", "Content-Length": "1000"], body: Self.body)
        let spy = SpyPerformer([.cutDownload(weak, after: 400), .response(weak)])
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When a retry tries again
        spy.retrying(.constant(delay: .zero), scheduler: ImmediateScheduler())
            .download(request, to: .file(folder.file("big.bin")), progress: nil, completion: result.record)
        // Then it asked for the whole body: nothing was kept that If-Range could not guard
        #expect(spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Range") } == [nil, nil])
        #expect(try Data(contentsOf: try #require(result.single).get().fileURL) == Self.body)
    }

    @Test func cancellingKeepingThePartialFileLeavesItAndPlainCancellingDeletesIt() throws {
        // Given a kept partial download and a next attempt held open
        let folder = try TemporaryFolder()
        let destination = folder.file("big.bin")
        let spy = SpyPerformer([Self.cut, .hold, .hold])
        spy.download(request, to: .file(destination), progress: nil) { _ in }
        let paused = Recorder<Result<DownloadedFile, any Error>>()
        // When the caller cancels keeping what it has
        spy.download(request, to: .file(destination), progress: nil, completion: paused.record).cancelKeepingPartial()
        // Then the call is cancelled and the 400 bytes stay for later
        #expect(paused.single?.failureCode == .cancelled)
        #expect(PartialDownload.existing(for: destination)?.receivedBytes == 400)

        // When the next attempt is cancelled the ordinary way
        let abandoned = Recorder<Result<DownloadedFile, any Error>>()
        spy.download(request, to: .file(destination), progress: nil, completion: abandoned.record).cancel()
        // Then the download is abandoned: nothing is left
        #expect(abandoned.single?.failureCode == .cancelled)
        #expect(try folder.contents() == [])
    }

    @Test func anErrorThatCannotBeResumedAbandonsThePartialFile() throws {
        // Given a kept partial download, then a 404 for the resumed request
        let folder = try TemporaryFolder()
        let destination = folder.file("big.bin")
        let spy = SpyPerformer([Self.cut, .status(404)])
        spy.download(request, to: .file(destination), progress: nil) { _ in }
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When it is downloaded again
        spy.download(request, to: .file(destination), progress: nil, completion: result.record)
        // Then the 404 fails the call and the partial download is gone
        #expect(result.single?.failureCode == .httpStatus)
        #expect(try folder.contents() == [])
    }

    @Test func aTemporaryFileResumesWithinItsCallAndLeavesNothingWhenTheCallFails() throws {
        // Given a cut download, then the rest, to a temporary file
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([Self.cut, Self.rest(from: 400), Self.cut])
        let retrying = spy.retrying(.constant(maxAttempts: 2, delay: .zero), scheduler: ImmediateScheduler())
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When a retry resumes it
        retrying.download(request, to: .temporaryFile(in: folder.url), progress: nil, completion: result.record)
        // Then both attempts wrote the same file, and it is whole
        let file = try #require(result.single).get()
        #expect(try Data(contentsOf: file.fileURL) == Self.body)
        #expect(try folder.contents() == [file.fileURL.lastPathComponent])
        try FileManager.default.removeItem(at: file.fileURL)

        // When a download to a temporary file is cut with no retry left
        let failed = Recorder<Result<DownloadedFile, any Error>>()
        spy.download(request, to: .temporaryFile(in: folder.url), progress: nil, completion: failed.record)
        // Then nothing is kept: no later call could name it
        #expect(failed.single?.failureCode == .connectionLost)
        #expect(try folder.contents() == [])
    }

    @Test func anAsyncTransferCanBeCancelledKeepingItsPartialFile() async throws {
        // Given a kept partial download and a next attempt held open
        let folder = try TemporaryFolder()
        let destination = folder.file("big.bin")
        let spy = SpyPerformer([Self.cut, .hold])
        _ = try? await spy.download(request, to: .file(destination))
        let transfer = spy.downloading(request, to: .file(destination))
        // When the transfer is cancelled keeping what it has
        transfer.cancelKeepingPartial()
        // Then it ends cancelled, and the partial download is still there
        await #expect { _ = try await within("the download") { try await transfer.value } } throws: {
            ($0 as? FetchError)?.code == .cancelled
        }
        #expect(PartialDownload.existing(for: destination)?.receivedBytes == 400)
        #expect(PartialDownload.discard(for: destination))
        #expect(try folder.contents() == [])
    }
}

extension Result {
    /// The error of a failure.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The code of a failure that is a ``FetchError``.
    var failureCode: FetchError.Code? { (failure as? FetchError)?.code }
}
