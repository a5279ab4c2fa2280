import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

/// Downloads and uploads go through every layer of a stack, like any call, and over a spy
/// they complete before the call returns.
struct LayeredTransferTests {
    struct GetReport: Request {
        var url: URL { URL(string: "reports/latest.pdf")! }
    }

    @Test func aDownloadIsRefreshedAfterA401RetriedAfterA503AndWrittenBeforeItReturns() throws {
        // Given a spy that answers 401, then 503, then the report, under the README's stack
        // (base URL, token, retry, refresh) with an expired token
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([.status(401), .status(503), .text("%PDF-1.7")])
        let store = TokenStore("expired")
        let stack = spy.enhanced(by: BaseURL("https://api.example.com"), BearerToken(store))
            .retrying(.constant(maxAttempts: 3, delay: .seconds(1)), scheduler: ImmediateScheduler())
            .refreshing(
                with: RefreshTokenHandler { done in
                    store.token = "fresh"
                    done(.success(()))
                })
        let progress = Recorder<TransferProgress>()
        let result = Recorder<Result<DownloadedFile, any Error>>()

        // When the report is downloaded to a file
        stack.download(
            GetReport(), to: .file(folder.file("r.pdf")), progress: progress.record, completion: result.record)

        // Then before `download` returned: three downloads reached the spy, all with the base
        // URL, the first with the expired token and the others with the fresh one
        let file = try #require(result.single).get()
        #expect(spy.calls.map(\.kind) == [.download, .download, .download])
        #expect(
            spy.urlRequests.map { $0?.url?.absoluteString }
                == Array(
                    repeating: "https://api.example.com/reports/latest.pdf", count: 3
                ))
        #expect(
            spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Authorization") } == [
                "Bearer expired", "Bearer fresh", "Bearer fresh",
            ])
        // And the file holds the last body, the response names the caller's request, and
        // progress finished once
        #expect(try Data(contentsOf: file.fileURL) == Data("%PDF-1.7".utf8))
        #expect(file.response.request is GetReport)
        #expect(progress.all.last == .finished(8))
        #expect(progress.all.filter(\.isFinished).count == 1)
        #expect(try folder.contents() == ["r.pdf"])
    }

    @Test func anUploadGetsTheTokenTheHooksTheLogAndTheActivityReport() throws {
        // Given a spy under logging, activity, hooks and an enhancer
        let spy = SpyPerformer([.text("stored", status: 201)])
        let lines = Recorder<String>()
        let activity = Recorder<String>()
        let hooked = Recorder<String>()
        let stack = spy.enhanced(by: BearerToken(TokenStore("t0ken")))
            .hooking(pre: [
                PreRequestHook("mark") { request in
                    hooked.record(request.url.absoluteString)
                    return request.with(\.skipsBaseURL, true)
                }
            ])
            .reportingActivity(to: ActivityRecorder(activity))
            .logging(LogConfiguration(options: .default) { lines.record($0.message) })
        let request = BasicRequest(
            url: URL(string: "https://files.example.com/photos")!, method: .put, body: .data(Data(count: 1000))
        )
        let progress = Recorder<TransferProgress>()
        let result = Recorder<Result<Response, any Error>>()

        // When the photo is uploaded with progress
        stack.upload(request, progress: progress.record, completion: result.record)

        // Then it was recorded as an upload with the token, every layer saw it, progress was
        // reported, and the caller got the response naming its own request
        let response = try #require(result.single).get()
        #expect(response.status == 201)
        #expect(response.request is BasicRequest)
        #expect(spy.calls.first?.kind == .upload)
        #expect(spy.urlRequests.first??.value(forHTTPHeaderField: "Authorization") == "Bearer t0ken")
        #expect(hooked.all == ["https://files.example.com/photos"])
        #expect(activity.all == ["started", "ended 201"])
        #expect(lines.count == 1)
        #expect(lines.all.first?.contains("PUT https://files.example.com/photos -> 201") == true)
        #expect(progress.all == [TransferProgress(completedBytes: 500, expectedBytes: 1000), .finished(1000)])
    }

    @Test func aDownloadThatKeepsFailingLeavesNoFileAndReportsTheLastStatus() throws {
        // Given a spy that answers 503 three times under a retrying layer
        let folder = try TemporaryFolder()
        let spy = SpyPerformer([.status(503), .status(503), .status(503, body: "busy")])
        let stack = spy.retrying(.constant(maxAttempts: 3, delay: .seconds(1)), scheduler: ImmediateScheduler())
        let result = Recorder<Result<DownloadedFile, any Error>>()

        // When the report is downloaded
        stack.download(
            BasicRequest(url: URL(string: "https://example.com/r.pdf")!), to: .file(folder.file("r.pdf")),
            progress: nil, completion: result.record
        )

        // Then it was tried three times and fails with the last status and body; no file is left
        let error = try #require(fetchError(result.single.map { $0.map(\.response) }))
        #expect(spy.calls.count == 3)
        #expect(error.code == .httpStatus)
        #expect(error.status == 503)
        #expect(error.response?.bodyPreview() == "busy")
        #expect(try folder.contents().isEmpty)
    }

    @Test func anUploadWithoutABodyIsRefusedThroughTheLayersWithoutReachingTheScript() throws {
        // Given a spy with one answer under an enhancing layer
        let spy = SpyPerformer([.text("unused")])
        let stack = spy.enhanced(by: BearerToken(TokenStore("t")))
        let result = Recorder<Result<Response, any Error>>()

        // When a request without a body is uploaded
        stack.upload(
            BasicRequest(url: URL(string: "https://example.com/u")!, method: .post), progress: nil,
            completion: result.record)

        // Then it fails as invalid, and the script's answer is left for the next call
        let error = try #require(fetchError(result.single))
        #expect(error.code == .invalidRequest)
        #expect(error.reason.contains("an upload needs a body"))
        #expect(performNow(spy, get("https://example.com/next")).map(outcome) == "200")
    }
}

/// Records an activity reporter's calls as text.
struct ActivityRecorder: ActivityReporting {
    let recorder: Recorder<String>
    init(_ recorder: Recorder<String>) { self.recorder = recorder }
    func requestStarted(_ request: any Request) { recorder.record("started") }
    func requestEnded(_ request: any Request, result: Result<Response, any Error>) {
        recorder.record("ended " + outcome(result))
    }
}
