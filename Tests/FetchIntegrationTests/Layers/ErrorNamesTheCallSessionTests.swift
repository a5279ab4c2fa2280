import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport

/// Every way a call can fail over a real `Session` under a `BaseURL`, with callbacks and
/// with async/await: the error names the method and the absolute URL that was, or would
/// have been, sent.
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct ErrorNamesTheCallSessionTests {
    /// A way of failing.
    enum Failure: String, CaseIterable, Sendable {
        case cancel, deadline, transport, enhancer, preHook, streamLoop, download, upload
    }

    /// How the call is made.
    enum Form: String, CaseIterable, Sendable {
        case callback, async
    }

    /// What the failing enhancer throws.
    struct Boom: Error {}

    /// An enhancer that refuses every request, after the base URL was put in front.
    struct Refusing: Enhancer {
        func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws { throw Boom() }
    }

    @Test(arguments: Failure.allCases, Form.allCases)
    func theErrorNamesTheMethodAndTheAbsoluteURL(failure: Failure, form: Form) async throws {
        // Given a stack over a Session under a BaseURL (a port that refuses connections for a
        // transport failure), and a relative request that fails `failure`'s way
        let servers = try LoopbackServers.require()
        let refusing = try RefusingPort()
        let base =
            failure == .transport || failure == .upload
            ? URL(string: "http://127.0.0.1:\(refusing.port)")! : servers.faults.url("/")
        var enhancers: [any Enhancer] = [BaseURL(base)]
        if failure == .enhancer { enhancers.append(Refusing()) }
        var api: any RequestPerforming = Session().enhanced(by: enhancers).logging(
            LogConfiguration(options: .all) { _ in })
        if failure == .preHook { api = api.hooking(pre: [PreRequestHook("gate") { _ in throw Boom() }]) }
        var request = BasicRequest(url: URL(string: failure == .streamLoop ? "sse?pause=5" : "stall?seconds=5")!)
        if failure == .deadline { request.options.deadline = .milliseconds(100) }
        if failure == .upload {
            request.method = .put
            request.body = .data(Data("up".utf8))
        }
        let expected = base.appendingPathComponent(request.url.path)

        // When the call is made with `form` (and cancelled, for a cancel or a stream's loop)
        let error = try await self.error(of: failure, form, request, through: api)

        // Then the error names the method and the absolute URL
        #expect(error.method == request.method, "\(error)")
        #expect(error.url?.absoluteString.hasPrefix(expected.absoluteString) == true, "\(error)")
        #expect(error.summary.hasPrefix("\(request.method) \(expected.absoluteString)"), "\(error.summary)")
    }

    /// The error of `request` through `api`, made in `form`.
    private func error(
        of failure: Failure, _ form: Form, _ request: BasicRequest, through api: any RequestPerforming
    ) async throws -> FetchError {
        let file = try ownFolder().appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let cancels = failure == .cancel || failure == .download
        let result: Result<Void, any Error>
        switch (form, failure) {
        case (.callback, .streamLoop):
            let (opened, head) = AsyncStream<Void>.makeStream()
            let (ended, end) = AsyncStream<Result<Void, any Error>>.makeStream()
            let handle = api.stream(request, onResponse: { _ in head.yield() }, onChunk: { _ in }) {
                end.yield($0.map { _ in })
            }
            _ = try await opened.next(within: standardBound, "the stream's head")
            handle.cancel()
            result = try #require(try await ended.next(within: standardBound, "the stream's end"))
        case (.async, .streamLoop):
            let stream = try await api.stream(request)
            stream.cancel()
            result = await caught { try await within("the cancelled stream") { for try await _ in stream.events {} } }
        case (.callback, .download):
            result = try await within("the download's completion") {
                await withCheckedContinuation { continuation in
                    api.download(request, to: .file(file), progress: nil) {
                        continuation.resume(returning: $0.map { _ in })
                    }.cancel()
                }
            }
        case (.async, .download):
            let transfer = api.downloading(request, to: .file(file))
            transfer.cancel()
            result = await caught { _ = try await within("the download") { try await transfer.value } }
        case (.callback, .upload):
            result = try await within("the upload's completion") {
                await withCheckedContinuation { continuation in
                    api.upload(request, progress: nil) { continuation.resume(returning: $0.map { _ in }) }
                }
            }
        case (.async, .upload):
            result = await caught { _ = try await api.upload(request) }
        case (.callback, _):
            result = try await within("the call's completion") {
                await withCheckedContinuation { continuation in
                    let handle = api.perform(request) { continuation.resume(returning: $0.map { _ in }) }
                    if cancels { handle.cancel() }
                }
            }
        case (.async, _):
            let call = Task { await caught { _ = try await api.response(for: request) } }
            if cancels { call.cancel() }
            result = try await call.value(within: standardBound, "the async call")
        }
        guard case .failure(let error) = result else {
            Issue.record("the call succeeded")
            throw Boom()
        }
        return try #require(error as? FetchError, "\(error)")
    }
}

/// What `body` returned or threw.
private func caught<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
