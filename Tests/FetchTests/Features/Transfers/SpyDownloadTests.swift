import Foundation
import Testing
import Fetch
import FetchTesting
import TestSupport

struct SpyDownloadTests {
    let request = BasicRequest(url: URL(string: "https://example.com/files/report.pdf")!)

    @Test func downloadWritesTheScriptedBodyBeforeReturning() throws {
        // Given a spy answering with 8 bytes and an empty folder
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([.response(Response(status: 200, headers: ["ETag": "v1"], body: Data("%PDF-1.7".utf8)))])
        let progress = Recorder<TransferProgress>()
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When the report is downloaded to a file in it
        let destination = DownloadDestination.file(folder.file("report.pdf"))
        spy.download(request, to: destination, progress: progress.record, completion: result.record)
        // Then the file holds the body, progress went halfway then finished, and the result
        // carries the response without its body
        let file = try #require(result.all.first).get()
        #expect(try Data(contentsOf: file.fileURL) == Data("%PDF-1.7".utf8))
        #expect(file.fileURL == folder.file("report.pdf"))
        #expect(file.response.headers["ETag"] == "v1")
        #expect(file.response.body.isEmpty)
        #expect(progress.all == [TransferProgress(completedBytes: 4, expectedBytes: 8), .finished(8)])
    }

    @Test func downloadIsRecordedWithItsDestination() throws {
        // Given a spy that answers
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([.text("hello")])
        spy.progressFractions = []
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When a download goes to a temporary file in the folder
        spy.download(request, to: .temporaryFile(in: folder.url), progress: nil, completion: result.record)
        // Then the call is recorded as a download with that destination, and the new file is the caller's
        let call = try #require(spy.calls.first)
        #expect(call.kind == .download)
        #expect(call.destination?.replacesExisting == false)
        let file = try #require(result.all.first).get()
        #expect(file.fileURL.deletingLastPathComponent().path == folder.url.path)
        #expect(file.fileURL.lastPathComponent.hasPrefix("fetch-"))
        #expect(file.fileURL.pathExtension == "pdf")
        #expect(try folder.contents() == [file.fileURL.lastPathComponent])
    }

    @Test func errorStatusFailsAndWritesNothing() throws {
        // Given a spy answering 404
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([.status(404, body: "not here")])
        let result = Recorder<Result<DownloadedFile, any Error>>()
        // When the report is downloaded
        spy.download(request, to: .file(folder.file("r.pdf")), progress: nil, completion: result.record)
        // Then the call fails with the status and no file is written
        let error = try #require(fetchError(result.all.first))
        #expect(error.code == .httpStatus)
        #expect(error.status == 404)
        #expect(try folder.contents().isEmpty)
    }

    @Test func existingFileIsReplacedOnlyWhenAllowed() async throws {
        // Given a file already at the destination
        let folder = try TemporaryFolder()
        let existing = try folder.write("old", to: "r.pdf")
        let spy = SpyPerformer([.text("new"), .text("new")])
        // When it is downloaded without, then with permission to replace
        let refused = await #expect(throws: FetchError.self) {
            try await spy.download(request, to: .file(existing))
        }
        let kept = try String(contentsOf: existing, encoding: .utf8)
        let replaced = try await spy.download(request, to: .file(existing, replacingExisting: true))
        // Then the first fails with a file error and keeps the old file; the second replaces it
        #expect(refused?.code == .file)
        #expect(kept == "old")
        #expect(try String(contentsOf: replaced.fileURL, encoding: .utf8) == "new")
        #expect(try folder.contents() == ["r.pdf"])
    }

    @Test func heldDownloadCancelledWritesNothing() throws {
        // Given a spy that holds the call open
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([.hold])
        let result = Recorder<Result<DownloadedFile, any Error>>()
        let handle = spy.download(request, to: .file(folder.file("r.pdf")), progress: nil, completion: result.record)
        #expect(result.all.isEmpty)
        // When the caller cancels it
        handle.cancel()
        // Then it completes as cancelled and no file exists
        #expect(fetchError(result.all.first)?.code == .cancelled)
        #expect(spy.pending.isEmpty)
        #expect(try folder.contents().isEmpty)
    }

    @Test func heldDownloadWritesWhenAnswered() throws {
        // Given a held download
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([.hold])
        let result = Recorder<Result<DownloadedFile, any Error>>()
        spy.download(request, to: .file(folder.file("r.pdf")), progress: nil, completion: result.record)
        // When the test answers it
        try #require(spy.pending.first).respond(.text("late"))
        // Then the file is written and the call completes
        #expect(try String(contentsOf: result.all.first!.get().fileURL, encoding: .utf8) == "late")
    }

    @Test func transferProgressIsAnAsyncSequence() async throws {
        // Given a spy reporting at a quarter, half and three quarters of 100 bytes
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([.response(Response(status: 200, body: Data(count: 100)))])
        spy.progressFractions = [0.25, 0.5, 0.75]
        // When the download is started and its progress read as a sequence
        let transfer = spy.downloading(request, to: .file(folder.file("r.bin")))
        let seen = try await transfer.progress.collected(within: standardBound, "the progress").map(\.completedBytes)
        let file = try await within("the download") { try await transfer.value }
        // Then every report arrives in order, ending with the full size
        #expect(seen == [25, 50, 75, 100])
        #expect(file.status == 200)
    }

    @Test func cancellingTheWaitingTaskCancelsTheTransfer() async throws {
        // Given a held download whose value a task awaits
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([.hold])
        let transfer = spy.downloading(request, to: .file(folder.file("r.bin")))
        let task = Task { try await transfer.value }
        // When the task is cancelled
        task.cancel()
        // Then the download fails as cancelled and the spy's call is closed
        let error = await #expect(throws: FetchError.self) { try await task.value(within: standardBound) }
        #expect(error?.code == .cancelled)
        #expect(spy.pending.isEmpty)
        #expect(try folder.contents().isEmpty)
    }
}

/// The ``FetchError`` of a failed result, `nil` for a success or another error.
func fetchError<Value>(_ result: Result<Value, any Error>?) -> FetchError? {
    guard case .failure(let error as FetchError) = result else { return nil }
    return error
}
