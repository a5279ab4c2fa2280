import Foundation
import Testing
import Fetch

extension TransferTests {
    @Suite struct UploadTests {
        @Test func fileUploadSendsItsBytesWithTheRequestsMethodAndHeaders() async throws {
            // Given a 3 MB file and a PUT with a header of its own
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let file = try folder.makeFile("data.bin", size: 3_000_000)
            let request = BasicRequest(
                url: server.url("/upload"), method: .put, headers: ["X-Trace": "t-1"],
                body: .file(file, contentType: "application/x-test")
            )
            let log = ProgressLog()
            // When it is uploaded
            let response = try await Session().upload(request, progress: log.record)
            // Then the server got every byte, with the method, headers and Content-Length
            let received = try ReceivedBody.parse(from: response)
            #expect(received.method == "PUT")
            #expect(received.bytes == 3_000_000)
            #expect(received.crc32 == (try CRC32.of(file)))
            #expect(received.contentType == "application/x-test")
            #expect(received.headers["X-Trace"] == "t-1")
            #expect(received.headers["Content-Length"] == "3000000")
            #expect(log.all.last == .finished(3_000_000))
            #expect(log.all.dropLast().allSatisfy { $0.expectedBytes == 3_000_000 })
        }

        @Test func dataUploadSendsItsBytes() async throws {
            // Given a POST of 1 MB in memory
            let server = try TransferServer.require()
            let body = Data((0..<1_000_000).map { UInt8($0 % 7) })
            let log = ProgressLog()
            // When it is uploaded
            let response = try await Session().upload(
                BasicRequest(url: server.url("/upload"), method: .post, body: .data(body)), progress: log.record
            )
            // Then the server got it all and progress ends at its size
            let received = try ReceivedBody.parse(from: response)
            #expect(received.bytes == 1_000_000)
            #expect(received.contentType == "application/octet-stream")
            #expect(log.all.last == .finished(1_000_000))
        }

        @Test func performSendsAFileBodyFromDisk() async throws {
            // Given a POST whose body is a file
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let file = try folder.makeFile("p.bin", size: 100_000)
            // When it is performed like any request
            let received = try await Session().perform(
                BasicRequest(url: server.url("/upload"), method: .post, body: .file(file)), as: ReceivedBody.self
            )
            // Then the file's bytes arrive
            #expect(received.bytes == 100_000)
            #expect(received.crc32 == (try CRC32.of(file)))
        }

        @Test func missingFileFailsWithAFileError() async throws {
            // Given a body naming a file that does not exist
            let server = try TransferServer.require()
            let missing = URL(fileURLWithPath: "/nonexistent/fetch-\(UUID().uuidString).bin")
            // When it is uploaded
            let error = await #expect(throws: FetchError.self) {
                let request = BasicRequest(url: server.url("/upload"), method: .post, body: .file(missing))
                return try await Session().upload(request)
            }
            // Then the call fails before sending, naming the file and the request
            #expect(error?.code == .file)
            #expect(error?.reason.contains(missing.path) == true)
            #expect(error?.url == server.url("/upload"))
        }

        @Test func getWithAFileBodyIsRefused() async throws {
            // Given a GET with a file body
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let file = try folder.makeFile("g.bin", size: 10)
            // When it is performed
            let error = await #expect(throws: FetchError.self) {
                try await Session().response(for: BasicRequest(url: server.url("/upload"), body: .file(file)))
            }
            // Then it is refused as an invalid request
            #expect(error?.code == .invalidRequest)
        }

        @Test func uploadWithoutABodyIsRefused() async throws {
            // Given a POST without a body
            let server = try TransferServer.require()
            // When it is uploaded
            let error = await #expect(throws: FetchError.self) {
                try await Session().upload(BasicRequest(url: server.url("/upload"), method: .post))
            }
            // Then it is refused
            #expect(error?.code == .invalidRequest)
        }
    }
}

extension TransferTests.UploadTests {
    @Test func fileUploadFollowsA307WithItsBody() async throws {
        // Given a POST of a 200,000-byte file to a URL that answers 307
        let server = try TransferServer.require()
        let folder = try ScratchFolder()
        let file = try folder.makeFile("r.bin", size: 200_000)
        let request = BasicRequest(
            url: server.url("/redirect?status=307&to=/upload"), method: .post, body: .file(file)
        )
        let log = ProgressLog()
        // When it is uploaded
        let received = try ReceivedBody.parse(from: try await Session().upload(request, progress: log.record))
        // Then the file is sent again to the new location, whole (URLSession on Linux would
        // send an empty body; the session re-sends the hop as a new upload task), and the
        // last progress report is the whole file
        #expect(received.method == "POST")
        let checksum = try CRC32.of(file)
        #expect(received.bytes == 200_000)
        #expect(received.crc32 == checksum)
        #expect(log.all.last == .finished(200_000))
    }
}
