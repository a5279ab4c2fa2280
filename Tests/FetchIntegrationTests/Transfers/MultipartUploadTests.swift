import Foundation
import Testing
import Fetch
import TestSupport

extension TransferTests {
    @Suite struct MultipartUploadTests {
        static let hundredMebibytes = 100 << 20

        static let memoryTest = "MultipartUploadTests/twoHundredMebibyteFilesStreamWithBoundedMemory"

        @Test func twoHundredMebibyteUploadRunsInAProcessOfItsOwn() async throws {
            // Given the 2 x 100 MiB upload test below, which measures the process's peak memory
            let server = try TransferServer.require()
            // When it runs in a child process, where no other test allocates meanwhile
            let outcome = try await IsolatedRun.run(Self.memoryTest, faultServer: server)
            // Then it ran and measured there, and passed
            let measured = outcome.lines(from: "2 x 100 MiB multipart")
            for line in measured { print(line) }
            #expect(outcome.status == 0, "the child run failed:\n\(outcome.output)")
            #expect(measured.count == 1, "the child did not measure the upload:\n\(outcome.output.suffix(3000))")
        }

        @Test(.enabled(if: IsolatedRun.isChild(named: memoryTest)))
        func twoHundredMebibyteFilesStreamWithBoundedMemory() async throws {
            // Given a form with a text field and two 100 MiB files
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let first = try folder.makeFile("first.bin", size: Self.hundredMebibytes)
            let second = try folder.makeFile("second.dat", size: Self.hundredMebibytes)
            var form = MultipartForm()
            form.append("two files", name: "note")
            form.append(contentsOf: first, name: "a")
            form.append(contentsOf: second, name: "b", fileName: "renamed.dat", contentType: "application/x-b")
            let length = try #require(form.contentLength)
            let temporaryBefore = try TransferTests.DownloadTests.fetchFilesInTemporaryFolder()
            let log = ProgressLog()
            let request = BasicRequest(url: server.url("/multipart"), method: .post, body: .multipart(form))
            // When it is uploaded, measuring the process's peak resident memory
            let (response, baseline, peak) = try await ProcessMemory.measure {
                try await Session().upload(request, progress: log.record)
            }
            print("2 x 100 MiB multipart: resident before \(baseline) MB, peak \(peak) MB, rise \(peak - baseline) MB")
            // Then the server saw each part whole, the length was announced, memory stayed bounded
            // and the encoded form was deleted
            let received = try ReceivedBody.parse(from: response)
            #expect(received.headers["Content-Length"] == String(length))
            #expect(received.bytes == Int(length))
            #expect(received.complete == true)
            #expect(
                received.parts == [
                    .init(name: "note", filename: nil, contentType: nil, size: 9, crc32: 0x5796_9080),
                    .init(
                        name: "a", filename: "first.bin", contentType: "application/octet-stream",
                        size: Self.hundredMebibytes, crc32: try CRC32.of(first)),
                    .init(
                        name: "b", filename: "renamed.dat", contentType: "application/x-b",
                        size: Self.hundredMebibytes, crc32: try CRC32.of(second)),
                ])
            #expect(log.all.last == .finished(length))
            // The sanitizer's own bookkeeping grows with every byte touched: no bound there
            if !ProcessMemory.underThreadSanitizer {
                #expect(peak - baseline < 64)
            }
            #expect(try await TransferTests.DownloadTests.fetchFilesLeft(besides: temporaryBefore).isEmpty)
        }

        @Test func cancelledFormUploadLeavesNoTemporaryFile() async throws {
            // Given a form with a 20 MiB file, uploaded to a server
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            var form = MultipartForm()
            form.append(contentsOf: try folder.makeFile("c.bin", size: 20 << 20), name: "c")
            let temporaryBefore = try TransferTests.DownloadTests.fetchFilesInTemporaryFolder()
            // When it is cancelled at once, while the form is being written
            let transfer = Session().uploading(
                BasicRequest(url: server.url("/multipart"), method: .post, body: .multipart(form))
            )
            transfer.cancel()
            let error = await #expect(throws: FetchError.self) {
                try await within("the upload") { try await transfer.value }
            }
            // Then it fails as cancelled and the encoded form is gone
            #expect(error?.code == .cancelled)
            #expect(try await TransferTests.DownloadTests.fetchFilesLeft(besides: temporaryBefore).isEmpty)
        }

        @Test func cancelAllReachesAFormStillBeingWritten() async throws {
            // Given a form with a 20 MiB file, uploaded through a session
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            var form = MultipartForm()
            form.append(contentsOf: try folder.makeFile("c.bin", size: 20 << 20), name: "c")
            let temporaryBefore = try TransferTests.DownloadTests.fetchFilesInTemporaryFolder()
            let session = Session()
            // When the session cancels everything at once, while the form is being written
            let transfer = session.uploading(
                BasicRequest(url: server.url("/multipart"), method: .post, body: .multipart(form))
            )
            session.cancelAll()
            let error = await #expect(throws: FetchError.self) {
                try await within("the upload") { try await transfer.value }
            }
            // Then the upload fails as cancelled, without reaching the server, and the encoded form is gone
            #expect(error?.code == .cancelled)
            #expect(try await TransferTests.DownloadTests.fetchFilesLeft(besides: temporaryBefore).isEmpty)
        }
    }
}
