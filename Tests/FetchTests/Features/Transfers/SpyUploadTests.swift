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
        let request = BasicRequest(
            url: URL(string: "https://example.com/photos")!, method: .put,
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
        #expect(
            progress.all == [
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
        spy.upload(
            BasicRequest(url: URL(string: "https://example.com/u")!, method: .post, body: .text("hi")),
            progress: progress.record, completion: result.record)
        // Then the error arrives and no progress was reported
        #expect(fetchError(result.all.first)?.code == .connectionLost)
        #expect(progress.all.isEmpty)
    }

    @Test func anUploadWithoutABodyIsRefusedAsBySession() async throws {
        // Given a spy that would answer, and a POST with no body
        let spy = SpyPerformer([.status(200)])
        let request = BasicRequest(url: URL(string: "http://127.0.0.1:9/u")!, method: .post)
        let sessionError = await #expect(throws: FetchError.self) { try await Session().upload(request) }
        // When it is uploaded over the spy
        let result = Recorder<Result<Response, any Error>>()
        spy.upload(request, progress: nil, completion: result.record)
        // Then it fails at once with Session's invalidRequest, and the script is untouched
        let error = try #require(fetchError(result.single))
        #expect(error.code == .invalidRequest)
        #expect(error.description == "POST http://127.0.0.1:9/u: an upload needs a body")
        #expect(error.description == sessionError?.description)
        #expect(spy.calls.map(\.kind) == [.upload])
        #expect(try await spy.upload(BasicRequest(url: request.url, method: .post, body: .text("x"))).status == 200)
    }

    @Test func anUploadOfAMissingFileFailsWithFileAsBySession() async throws {
        // Given a file body whose file does not exist
        let folder = try TemporaryFolder()
        let request = BasicRequest(
            url: URL(string: "http://127.0.0.1:9/u")!, method: .put,
            body: .file(folder.file("gone.jpg")))
        let sessionError = await #expect(throws: FetchError.self) { try await Session().upload(request) }
        let spy = SpyPerformer([.status(201)])
        let progress = Recorder<TransferProgress>()
        // When it is uploaded over the spy
        let error = await #expect(throws: FetchError.self) { try await spy.upload(request, progress: progress.record) }
        // Then it fails with Session's file error naming the request, reporting no progress
        #expect(error?.code == .file)
        #expect(error?.description == sessionError?.description)
        #expect(error?.description.hasPrefix("PUT http://127.0.0.1:9/u: ") == true)
        #expect(progress.all.isEmpty)
    }

    @Test func aFormWithAMissingFilePartFailsWithFile() async throws {
        // Given a form whose file part does not exist
        let folder = try TemporaryFolder()
        var form = MultipartForm(boundary: "b")
        form.append(contentsOf: folder.file("gone.txt"), name: "doc")
        let spy = SpyPerformer([.status(200)])
        // When it is uploaded
        let error = await #expect(throws: FetchError.self) {
            try await spy.upload(
                BasicRequest(
                    url: URL(string: "https://example.com/f")!, method: .post,
                    body: .multipart(form)))
        }
        // Then it fails with file naming the missing file and the request
        #expect(error?.code == .file)
        #expect(error?.reason.contains("gone.txt") == true)
        #expect(error?.method == .post)
    }

    @Test func progressCountsTheBytesTheRequestWasBuiltWith() throws {
        // Given a custom body that encodes once and fails if asked again
        let encodings = Recorder<Int>()
        let body = RequestBody.encoded(contentType: "text/plain") {
            encodings.record(encodings.count)
            guard encodings.count == 1 else { throw FetchError(.encoding, reason: "encoded twice") }
            return Data("hello".utf8)
        }
        let spy = SpyPerformer([.status(201)])
        spy.progressFractions = [0.4]
        let progress = Recorder<TransferProgress>()
        let result = Recorder<Result<Response, any Error>>()
        // When it is uploaded
        spy.upload(
            BasicRequest(url: URL(string: "https://example.com/u")!, method: .post, body: body),
            progress: progress.record, completion: result.record)
        // Then the progress is the size of the bytes built, and the body was encoded once
        #expect(progress.all == [TransferProgress(completedBytes: 2, expectedBytes: 5), .finished(5)])
        #expect(try result.single?.get().status == 201)
        #expect(encodings.count == 1)
    }
}
