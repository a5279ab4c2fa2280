import Foundation
import Testing
import Fetch
import TestSupport

extension TransferTests {
    @Suite struct DownloadTests {
        static let gibibyte = 1 << 30

        static let memoryTest = "DownloadTests/oneGibibyteGoesToDiskWithBoundedMemory"

        @Test func oneGibibyteDownloadRunsInAProcessOfItsOwn() async throws {
            // Given the 1 GiB download test below, which measures the process's peak memory
            let server = try TransferServer.require()
            // When it runs in a child process, where no other test allocates meanwhile
            let outcome = try await IsolatedRun.run(Self.memoryTest, faultServer: server)
            // Then it ran and measured there, and passed
            let measured = outcome.lines(from: "1 GiB download")
            for line in measured { print(line) }
            #expect(outcome.status == 0, "the child run failed:\n\(outcome.output)")
            #expect(measured.count == 1, "the child did not measure the download:\n\(outcome.output.suffix(3000))")
        }

        @Test(.enabled(if: IsolatedRun.isChild(named: memoryTest)))
        func oneGibibyteGoesToDiskWithBoundedMemory() async throws {
            // Given a server streaming 1 GiB and a destination in an empty folder
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let destination = folder.file("big.bin")
            let log = ProgressLog()
            let request = BasicRequest(url: server.url("/bytes?size=\(Self.gibibyte)"))
            let session = Session()
            // And a small download first, so that URLSession's and libcurl's first use (code
            // pages, threads, buffers) is in the baseline rather than counted as the transfer's
            let warmUp = try await session.download(
                BasicRequest(url: server.url("/bytes?size=65536")), to: .file(folder.file("warm.bin")))
            try FileManager.default.removeItem(at: warmUp.fileURL)
            // When it is downloaded, measuring the process's peak resident memory
            let (file, baseline, peak) = try await ProcessMemory.measure {
                try await session.download(request, to: .file(destination), progress: log.record)
            }
            print("1 GiB download: resident before \(baseline) MB, peak \(peak) MB, rise \(peak - baseline) MB")
            // Then the whole body is in the file, nothing else is left, and memory stayed bounded
            #expect(file.status == 200)
            #expect(file.fileURL == destination)
            #expect(file.response.body.isEmpty)
            let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int
            #expect(size == Self.gibibyte)
            #expect(try folder.contents() == ["big.bin"])
            #expect(try Self.matchesPattern(destination, at: [0, 65_535, Self.gibibyte - 4096]))
            #expect(log.all.last == .finished(Int64(Self.gibibyte)))
            // The sanitizer's own bookkeeping grows with every byte touched: no bound there
            if !ProcessMemory.underThreadSanitizer {
                #expect(peak - baseline < 64)
            }
        }

        @Test func progressReachesTheFullSize() async throws {
            // Given a 5 MB body announced with Content-Length
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let log = ProgressLog()
            // When it is downloaded to a temporary file in the folder
            let file = try await Session().download(
                BasicRequest(url: server.url("/bytes?size=5000000")), to: .temporaryFile(in: folder.url),
                progress: log.record
            )
            // Then progress only grows, knows the total, and ends finished at the full size
            let reports = log.all
            #expect(!reports.isEmpty)
            #expect(reports.map(\.completedBytes) == reports.map(\.completedBytes).sorted())
            #expect(reports.dropLast().allSatisfy { $0.expectedBytes == 5_000_000 && !$0.isFinished })
            #expect(reports.last == .finished(5_000_000))
            #expect(try folder.contents() == [file.fileURL.lastPathComponent])
            #expect(file.fileURL.lastPathComponent.hasPrefix("fetch-"))
        }

        @Test func chunkedBodyWithoutLengthFinishesWithItsSize() async throws {
            // Given a chunked body of 300,000 bytes (no Content-Length)
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let log = ProgressLog()
            // When it is downloaded
            let file = try await Session().download(
                BasicRequest(url: server.url("/bytes?size=300000&chunked=1")), to: .file(folder.file("c.bin")),
                progress: log.record
            )
            // Then the total is unknown until the final report
            #expect(try FileManager.default.attributesOfItem(atPath: file.fileURL.path)[.size] as? Int == 300_000)
            #expect(log.all.dropLast().allSatisfy { $0.expectedBytes == nil })
            #expect(log.all.last == .finished(300_000))
        }

        @Test func errorStatusFailsAndWritesNothing() async throws {
            // Given a server answering 404 with a 1000-byte body
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            // When it is downloaded
            let error = await #expect(throws: FetchError.self) {
                try await Session().download(
                    BasicRequest(url: server.url("/bytes?size=1000&status=404")), to: .file(folder.file("x.bin"))
                )
            }
            // Then the call fails with the status and the error body, and no file is left
            #expect(error?.code == .httpStatus)
            #expect(error?.status == 404)
            #expect(error?.response?.body.count == 1000)
            #expect(try folder.contents().isEmpty)
        }

        @Test func existingDestinationIsKeptUnlessReplacing() async throws {
            // Given a file already at the destination
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let destination = folder.file("keep.bin")
            try Data("old".utf8).write(to: destination)
            let request = BasicRequest(url: server.url("/bytes?size=10"))
            // When it is downloaded without, then with permission to replace
            let error = await #expect(throws: FetchError.self) {
                try await Session().download(request, to: .file(destination))
            }
            let kept = try Data(contentsOf: destination)
            let file = try await Session().download(request, to: .file(destination, replacingExisting: true))
            // Then the first call fails and leaves the file; the second replaces it
            #expect(error?.code == .file)
            #expect(kept == Data("old".utf8))
            #expect(try Data(contentsOf: file.fileURL) == Data(0..<10))
            #expect(try folder.contents() == ["keep.bin"])
        }

        @Test func cancelledDownloadLeavesNoFile() async throws {
            // Given a slow 100 MB download into an empty folder
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let temporaryBefore = try Self.fetchFilesInTemporaryFolder()
            let transfer = Session().downloading(
                BasicRequest(url: server.url("/bytes?size=100000000&delay=0.01")), to: .temporaryFile(in: folder.url)
            )
            // When it is cancelled once bytes have arrived
            try await within("the first bytes") { () async throws in
                for await progress in transfer.progress where progress.completedBytes > 0 {
                    #expect(try folder.contents().count == 1)
                    transfer.cancel()
                    break  // reports already on their way may still arrive; the partial file goes with the cancel
                }
            }
            let error = await #expect(throws: FetchError.self) {
                try await within("the download") { try await transfer.value }
            }
            // Then it fails as cancelled and neither the folder nor the temporary folder keeps a file
            #expect(error?.code == .cancelled)
            #expect(try folder.contents().isEmpty)
            #expect(try await Self.fetchFilesLeft(besides: temporaryBefore).isEmpty)
        }

        @Test func deadlineStopsADownloadAndLeavesNoFile() async throws {
            // Given a download far slower than its 0.5 s deadline
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let request = BasicRequest(
                url: server.url("/bytes?size=100000000&delay=0.05"),
                options: RequestOptions().with(\.deadline, .milliseconds(500))
            )
            // When it is downloaded
            let error = await #expect(throws: FetchError.self) {
                try await Session().download(request, to: .file(folder.file("slow.bin")))
            }
            // Then it fails with the deadline and the partial file is gone
            #expect(error?.code == .deadlineExceeded)
            #expect(try folder.contents().isEmpty)
        }

        @Test func redirectIsFollowedIntoTheFile() async throws {
            // Given a redirect to a 2,000-byte body
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            // When it is downloaded
            let file = try await Session().download(
                BasicRequest(url: server.url("/redirect?to=/bytes%3Fsize%3D2000")), to: .file(folder.file("r.bin"))
            )
            // Then the file holds the final body and the response names the final URL
            #expect(try Data(contentsOf: file.fileURL).count == 2000)
            #expect(file.response.url?.path == "/bytes")
        }

        @Test func postDownloadThroughA307WritesTheFinalBodyToTheFile() async throws {
            // Given a POST of 100,000 bytes to a URL that answers 307 to the echo of what it receives
            let server = try TransferServer.require()
            let folder = try ScratchFolder()
            let body = Data((0..<100_000).map { UInt8($0 % 251) })
            let request = BasicRequest(
                url: server.url("/redirect?status=307&to=/upload"), method: .post, body: .data(body)
            )
            let log = ProgressLog()
            // When its answer is downloaded to a file (the hop is sent again as a new task)
            let file = try await Session().download(request, to: .file(folder.file("echo.json")), progress: log.record)
            // Then the file holds the final answer, which says the body arrived whole, and
            // the response names the final URL
            let received = try JSONDecoder().decode(ReceivedBody.self, from: Data(contentsOf: file.fileURL))
            #expect(received.method == "POST")
            #expect(received.bytes == 100_000)
            #expect(file.response.url?.path == "/upload")
            #expect(file.response.body.isEmpty)
            let size = try FileManager.default.attributesOfItem(atPath: file.fileURL.path)[.size] as? Int
            #expect(log.all.last == .finished(Int64(size ?? -1)))
            #expect(try folder.contents() == ["echo.json"])
        }

        /// Whether the file holds the server's pattern (byte i is i % 256) at each offset.
        static func matchesPattern(_ url: URL, at offsets: [Int]) throws -> Bool {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            for offset in offsets {
                try handle.seek(toOffset: UInt64(offset))
                let bytes = try handle.read(upToCount: 4096) ?? Data()
                let wrong = bytes.enumerated().contains { Int($0.element) != (offset + $0.offset) % 256 }
                if bytes.isEmpty || wrong {
                    return false
                }
            }
            return true
        }

        /// Files Fetch names in the temporary folder (partial downloads, encoded forms).
        static func fetchFilesInTemporaryFolder() throws -> Set<String> {
            let names = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            return Set(
                names.filter { $0.hasPrefix(".fetch-") || $0.hasPrefix("fetch-upload-") || $0.contains(".fetchpart") })
        }

        /// The files of ``fetchFilesInTemporaryFolder()`` not in `before` that are still there
        /// after up to 20 s. The folder is the whole process's: suites running meanwhile stage
        /// their own downloads and forms there for as long as each call runs, while a file this
        /// test left stays.
        static func fetchFilesLeft(besides before: Set<String>) async throws -> Set<String> {
            let limit = ContinuousClock.now + .seconds(20)
            while true {
                let left = try fetchFilesInTemporaryFolder().subtracting(before)
                if left.isEmpty || ContinuousClock.now > limit { return left }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }
}
