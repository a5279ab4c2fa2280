import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport

/// One rule for every kind of call and both forms: a call runs as long as its result can
/// still be received. A callback call runs to its end whatever becomes of its handle; an
/// async call runs as long as its `Task`; a `ResponseStream` or a `Transfer` cancels its
/// call when the last reference to it goes, and the log line says so.
///
/// A `Task` that sends a call the test awaits with `nextCall()` starts at high priority, so
/// that it does not wait behind every test the run queues on the concurrency pool at once.
struct DroppingAHandleTests {
    static let request = BasicRequest(url: URL(string: "https://api.example.com/files/7")!)
    static let upload: BasicRequest = {
        var upload = request
        upload.method = .put
        upload.body = .data(Data("up".utf8))
        return upload
    }()

    /// A spy that holds every call, under a logging layer whose lines are kept.
    private static func stack() -> (SpyPerformer, any RequestPerforming, LockedBox<[String]>) {
        let spy = SpyPerformer(match: { _ in .hold })
        let lines = LockedBox<[String]>([])
        let api = spy.logging(LogConfiguration(options: .all) { event in lines.update { $0.append(event.message) } })
        return (spy, api, lines)
    }

    /// Answers the held `call` of `kind`: the head and a chunk to a stream, then the response.
    private static func answer(_ call: PendingCall, _ kind: CallKind.Name) {
        let head = Response(
            urlRequest: call.urlRequest, status: 200, body: kind == .stream ? Data() : Data("body".utf8))
        if kind == .stream {
            call.sink?.open(head)
            call.sink?.receive(Data("body".utf8))
        }
        call.respond(head)
    }

    /// A file to download to, in a folder of its own, so that tests that watch the temporary folder for Fetch's files never see it (a partial file beside it included); remove its folder.
    private static func temporaryFile() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dropping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("file")
    }

    @Test(arguments: CallKind.Name.allCases)
    func aCallbackCallRunsToItsEndWhenItsHandleIsDropped(kind: CallKind.Name) async throws {
        // Given a call of `kind` made with a completion handler, whose handle is not kept
        let (spy, api, _) = Self.stack()
        let file = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let outcome = LockedBox<Result<Void, any Error>?>(nil)
        let done: @Sendable (Result<Void, any Error>) -> Void = { result in outcome.update { $0 = result } }
        switch kind {
        case .plain: api.perform(Self.request) { done($0.map { _ in }) }
        case .download: api.download(Self.request, to: .file(file), progress: nil) { done($0.map { _ in }) }
        case .upload: api.upload(Self.upload, progress: nil) { done($0.map { _ in }) }
        case .stream: api.stream(Self.request, onChunk: { _ in }) { done($0.map { _ in }) }
        }

        // When the server answers after the handle is gone
        let call = try #require(spy.pending.first)
        #expect(!call.isCancelled)
        Self.answer(call, kind)

        // Then the call ran to its end and the completion got its result
        #expect(!call.isCancelled)
        let result = try #require(outcome.value)
        #expect(throws: Never.self) { try result.get() }
        if kind == .download { #expect(FileManager.default.fileExists(atPath: file.path)) }
    }

    @Test(arguments: CallKind.Name.allCases)
    func anAsyncCallRunsAsLongAsItsTask(kind: CallKind.Name) async throws {
        // Given a call of `kind` awaited by a Task whose handle is not kept
        let (spy, api, _) = Self.stack()
        let file = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let outcome = LockedBox<Result<Void, any Error>?>(nil)
        let (ended, end) = AsyncStream<Void>.makeStream()
        Task(priority: .high) {
            let result: Result<Void, any Error>
            do {
                switch kind {
                case .plain: _ = try await api.response(for: Self.request)
                case .download: _ = try await api.download(Self.request, to: .file(file))
                case .upload: _ = try await api.upload(Self.upload)
                case .stream: for try await _ in try await api.stream(Self.request).chunks {}
                }
                result = .success(())
            } catch {
                result = .failure(error)
            }
            outcome.update { $0 = result }
            end.finish()
        }

        // When the server answers
        let call = try await spy.nextCall()
        Self.answer(call, kind)
        _ = try await ended.collected(within: standardBound, "the Task's end")

        // Then the call ran to its end and the Task got its result
        #expect(!call.isCancelled)
        let result = try #require(outcome.value)
        #expect(throws: Never.self) { try result.get() }
    }

    @Test(arguments: CallKind.Name.allCases)
    func cancellingTheTaskCancelsAnAsyncCall(kind: CallKind.Name) async throws {
        // Given a call of `kind` awaited by a Task
        let (spy, api, _) = Self.stack()
        let file = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let task = Task(priority: .high) {
            switch kind {
            case .plain: _ = try await api.response(for: Self.request)
            case .download: _ = try await api.download(Self.request, to: .file(file))
            case .upload: _ = try await api.upload(Self.upload)
            case .stream: _ = try await api.stream(Self.request)
            }
        }
        let call = try await spy.nextCall()

        // When the Task is cancelled
        task.cancel()

        // Then the call is cancelled
        let error = await #expect(throws: FetchError.self) { try await task.value(within: standardBound) }
        #expect(error?.code == .cancelled)
        #expect(call.isCancelled)
    }

    @Test(arguments: [CallKind.Name.download, .upload])
    func droppingATransferCancelsItAndTheLogSaysSo(kind: CallKind.Name) throws {
        // Given a transfer under way
        let (spy, api, lines) = Self.stack()
        let file = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        var transfer: (any Cancellable)? =
            kind == .download ? api.downloading(Self.request, to: .file(file)) : api.uploading(Self.upload)
        let call = try #require(spy.pending.first)
        #expect(!call.isCancelled)

        // When the last reference to it goes
        transfer = nil

        // Then its call is cancelled, nothing is written, and the log says why
        #expect(transfer == nil)
        #expect(call.isCancelled)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        let line = try #require(lines.value.last)
        #expect(line.contains("-> cancelled: handle dropped: its Transfer was dropped after 0 bytes"), "\(line)")
    }

    @Test(arguments: [CallKind.Name.download, .upload])
    func aTransferThatIsKeptRunsToItsEnd(kind: CallKind.Name) async throws {
        // Given a transfer that is kept, read only through its progress
        let (spy, api, _) = Self.stack()
        let file = try Self.temporaryFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let progress: AsyncStream<Void> = {
            let (reports, report) = AsyncStream<Void>.makeStream()
            Task(priority: .high) {
                if kind == .download {
                    for await _ in api.downloading(Self.request, to: .file(file)).progress {}
                } else {
                    for await _ in api.uploading(Self.upload).progress {}
                }
                report.finish()
            }
            return reports
        }()

        // When the server answers
        let call = try await spy.nextCall()
        Self.answer(call, kind)
        _ = try await progress.collected(within: standardBound, "the progress to its end")

        // Then the progress sequence kept the transfer going to its end
        #expect(!call.isCancelled)
        if kind == .download { #expect(FileManager.default.fileExists(atPath: file.path)) }
    }

    @Test func droppingAResponseStreamCancelsItAndTheLogSaysSo() async throws {
        // Given a stream whose head and a first chunk arrived, not read yet
        let (spy, api, lines) = Self.stack()
        var opening: Task<ResponseStream, any Error>? = Task { try await api.stream(Self.request) }
        // (of default priority: a stream opened at high priority here and read from this Task
        // drew a thread sanitizer report, 1 in 4 runs; so the wait allows for the run's queue)
        let call = try await spy.nextCall(timeout: .seconds(60))
        call.sink?.open(Response(urlRequest: call.urlRequest, status: 200))
        call.sink?.receive(Data("12345".utf8))
        var stream: ResponseStream? = try await opening?.value
        opening = nil  // a finished Task keeps its value while its handle is held

        // When the last reference to it goes
        stream = nil

        // Then its call is cancelled and the log says why, with the bytes read
        #expect(stream == nil && opening == nil)
        #expect(call.isCancelled)
        let line = try #require(lines.value.last)
        #expect(
            line.contains(
                "-> 200, stream cancelled: handle dropped: its ResponseStream was dropped after 0 bytes read (5 received)"
            ),
            "\(line)")
    }
}
