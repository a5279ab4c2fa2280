import Foundation
import Testing
import Fetch
import FetchTesting

struct SpyUploadTests {
    @Test func fileUploadIsRecordedWithItsFileAndReportsScriptedProgress() throws {
        // Given a 1,000-byte file and a spy scripted to report at 10% and 60%
        let folder = try TemporaryFolder()
        let file = try folder.write(String(repeating: "x", count: 1000), to: "photo.jpg")
        let spy = SpyPerformer([.status(201)])
        spy.progressFractions = [0.1, 0.6]
        let request = BasicRequest(url: URL(string: "https://example.com/photos")!, method: .put,
                                   body: .file(file, contentType: "image/jpeg"))
        let progress = Recorder<TransferProgress>()
        let result = Recorder<Result<Response, any Error>>()
        // When it is uploaded
        spy.upload(request, progress: progress.record, completion: result.record)
        // Then the call is recorded with its file, the progress is the script then the
        // finished report, and the response arrives, all before `upload` returned
        let call = try #require(spy.calls.first)
        #expect(call.kind == .upload)
        #expect(call.body?.fileURL == file)
        #expect(call.urlRequest?.httpBody == nil)
        #expect(call.urlRequest?.value(forHTTPHeaderField: "Content-Type") == "image/jpeg")
        #expect(progress.all == [
            TransferProgress(completedBytes: 100, expectedBytes: 1000),
            TransferProgress(completedBytes: 600, expectedBytes: 1000),
            .finished(1000),
        ])
        #expect(try result.all.first?.get().status == 201)
    }

    @Test func formUploadIsRecordedWithItsParts() async throws {
        // Given a form with a text field and a file part
        let folder = try TemporaryFolder()
        let file = try folder.write("abc", to: "a.txt")
        var form = MultipartForm(boundary: "b")
        form.append("Ada", name: "name")
        form.append(contentsOf: file, name: "doc", contentType: "text/plain")
        let spy = SpyPerformer([.status(200)])
        // When it is uploaded
        let response = try await spy.upload(
            BasicRequest(url: URL(string: "https://example.com/forms")!, method: .post, body: .multipart(form))
        )
        // Then the recorded body is the streamed form, its parts intact
        let parts = try #require(spy.calls.first?.body?.streamedForm?.parts)
        #expect(parts.map(\.name) == ["name", "doc"])
        #expect(parts.map(\.fileName) == [nil, "a.txt"])
        #expect(response.status == 200)
    }

    @Test func failedUploadReportsNoProgress() throws {
        // Given a spy that fails the call
        let spy = SpyPerformer([.failure(.connectionLost)])
        let progress = Recorder<TransferProgress>()
        let result = Recorder<Result<Response, any Error>>()
        // When something is uploaded
        spy.upload(BasicRequest(url: URL(string: "https://example.com/u")!, method: .post, body: .text("hi")),
                   progress: progress.record, completion: result.record)
        // Then the error arrives and no progress was reported
        #expect(fetchError(result.all.first)?.code == .connectionLost)
        #expect(progress.all.isEmpty)
    }
}
