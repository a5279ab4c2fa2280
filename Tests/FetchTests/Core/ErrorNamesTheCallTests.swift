import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport
@testable import FetchCaching

/// Every way a call can fail, with callbacks and with async/await, over a spy under a
/// `BaseURL`: the error names the method and the absolute URL that was, or would have
/// been, sent, wherever in the stack it was made.
struct ErrorNamesTheCallTests {
    static let base = "https://api.example.com/v1"
    static let absolute = URL(string: "https://api.example.com/v1/users/7")!
    static let request = BasicRequest(url: URL(string: "users/7")!)

    /// The stack the README recommends, over `below` (the spy by default), with `extra`
    /// enhancers in the enhancing layer and `above` wrapped over it.
    static func stack(
        _ spy: SpyPerformer, enhancers extra: [any Enhancer] = [], scheduler: any Scheduler = ImmediateScheduler(),
        below: (SpyPerformer) -> any RequestPerforming = { $0 },
        above: (any RequestPerforming) -> any RequestPerforming = { $0 }
    ) -> any RequestPerforming {
        above(
            below(spy).enhanced(by: [BaseURL(base), BearerToken { "t" }] + extra)
                .retrying(.exponential(maxAttempts: 2), scheduler: scheduler)
                .logging(LogConfiguration(options: .all) { _ in }))
    }

    /// A way of failing.
    enum Failure: String, CaseIterable, Sendable {
        case cancelBeforeSend, cancelInFlight, cancelDuringRetryWait, transport
        case enhancerAfterBaseURL, enhancerInALayerAbove, asyncEnhancer, responseRefused
        case preHook, postHook, refresh, errorHandler, asyncErrorHandler, encoding
        case cacheMiss, coalescedCallerCancels
    }

    /// How the call is made.
    enum Form: String, CaseIterable, Sendable {
        case callback, async
    }

    /// The error of one call that fails the way `failure` says, made in `form`.
    private func error(of failure: Failure, _ form: Form) async throws -> FetchError {
        let spy = SpyPerformer()
        let manual = ManualScheduler()
        var described = Self.request
        var cancelAtOnce = false
        var cancelWhenSent = false
        let performer: any RequestPerforming
        switch failure {
        case .cancelBeforeSend:
            // An async enhancer that never finishes holds the call before anything is sent.
            performer = Self.stack(spy) { $0.enhanced(by: Unending()) }
            cancelAtOnce = true
        case .cancelInFlight:
            spy.enqueue(.hold)
            performer = Self.stack(spy)
            cancelWhenSent = true
        case .cancelDuringRetryWait:
            spy.enqueue(.failure(.connectionLost))
            performer = Self.stack(spy, scheduler: manual)
            cancelWhenSent = true
        case .transport:
            spy.enqueue(.failure(.connectionLost), .failure(.connectionLost))
            performer = Self.stack(spy)
        case .enhancerAfterBaseURL:
            performer = Self.stack(spy, enhancers: [Failing()])
        case .enhancerInALayerAbove:
            performer = Self.stack(spy) { $0.enhanced(by: Failing()) }
        case .asyncEnhancer:
            performer = Self.stack(spy) { $0.enhanced(by: Refusing()) }
        case .responseRefused:
            spy.enqueue(
                .response(Response(status: 200, headers: ["Content-Type": "text/html"], body: Data("<p>".utf8))))
            performer = Self.stack(spy, enhancers: [ContentTypeVerifier("application/json")])
        case .preHook:
            performer = Self.stack(spy) { $0.hooking(pre: [PreRequestHook("gate") { _ in throw Failing.Boom() }]) }
        case .postHook:
            spy.enqueue(.response(Response(status: 200)))
            performer = Self.stack(spy) {
                $0.hooking(post: [PostRequestHook("audit") { _, _ in throw Failing.Boom() }])
            }
        case .refresh:
            spy.enqueue(.response(Response(status: 401)))
            performer = Self.stack(spy) {
                $0.refreshing(with: RefreshTokenHandler { done in done(.failure(Failing.Boom())) })
            }
        case .errorHandler:
            spy.enqueue(.response(Response(status: 404)))
            performer = Self.stack(spy) {
                $0.handlingErrors([StatusErrorHandler(404) { _, _ in throw Failing.Boom() }])
            }
        case .asyncErrorHandler:
            spy.enqueue(.response(Response(status: 404)))
            performer = Self.stack(spy) { $0.handlingErrors(with: Throwing()) }
        case .encoding:
            described.method = .post
            described.body = .json(Unencodable())
            performer = Self.stack(spy)
        case .cacheMiss:
            described.options.cachePolicy = .onlyIfCached
            performer = Self.stack(spy) { $0.caching(CacheConfiguration(storage: MemoryCacheStorage())) }
        case .coalescedCallerCancels:
            // Another caller's call is in flight, held; this call joins it, then is cancelled
            // (coalescing goes below the enhancers, which make calls the same or different).
            spy.enqueue(.hold)
            performer = Self.stack(spy, below: { $0.coalescing() })
            performer.perform(Self.request) { _ in }
            cancelAtOnce = form == .callback
            cancelWhenSent = form == .async
        }
        let request = described
        let (atOnce, whenSent) = (cancelAtOnce, cancelWhenSent)
        let result: Result<Response, any Error>
        switch form {
        case .callback:
            result = try await within("the call's completion") {
                await withCheckedContinuation { continuation in
                    let handle = performer.perform(request) { continuation.resume(returning: $0) }
                    if atOnce { handle.cancel() }
                    if whenSent {
                        Task {
                            _ = try await spy.nextCall()
                            handle.cancel()
                        }
                    }
                }
            }
        case .async:
            let call = Task(priority: .high) {  // sent before the run's queued tests: see nextCall
                if atOnce { withUnsafeCurrentTask { $0?.cancel() } }
                return await caught { try await performer.response(for: request) }
            }
            if whenSent {
                _ = try await spy.nextCall()
                call.cancel()
            }
            result = try await call.value(within: standardBound, "the async call")
        }
        return try #require(result.failure as? FetchError, "\(result)")
    }

    @Test(arguments: Failure.allCases, Form.allCases)
    func theErrorNamesTheMethodAndTheAbsoluteURL(failure: Failure, form: Form) async throws {
        // Given a stack under BaseURL, and a call that fails `failure`'s way
        // When the call is made with `form`
        let error = try await error(of: failure, form)

        // Then the error names the method and the absolute URL, in its fields and its summary
        #expect(error.method == (failure == .encoding ? .post : .get), "\(error)")
        #expect(error.url == Self.absolute, "\(error)")
        #expect(error.summary.hasPrefix("\(error.method!) \(Self.absolute.absoluteString): "), "\(error.summary)")
    }

    @Test(arguments: Form.allCases)
    func aStreamsLoopAfterCancelNamesTheCall(form: Form) async throws {
        // Given a stream under BaseURL whose head has arrived
        let spy = SpyPerformer([.hold])
        let api = Self.stack(spy)
        let error: FetchError
        switch form {
        case .callback:
            let outcome = LockedBox<Result<Response, any Error>?>(nil)
            let handle = api.stream(Self.request, onChunk: { _ in }) { result in outcome.update { $0 = result } }
            let call = try await spy.nextCall()
            call.sink?.open(Response(urlRequest: call.urlRequest, status: 200))
            call.sink?.receive(Data("a".utf8))

            // When the stream is cancelled
            handle.cancel()
            error = try #require(outcome.value?.failure as? FetchError)
        case .async:
            async let opened = api.stream(Self.request)
            // (of default priority: a stream opened at high priority here and read from this
            // Task drew a thread sanitizer report, 1 in 4 runs; so the wait allows for the
            // run's queue, which kept it from the spy for over 10 s in 1 of 5 loaded runs)
            let call = try await spy.nextCall(timeout: .seconds(60))
            call.sink?.open(Response(urlRequest: call.urlRequest, status: 200))
            call.sink?.receive(Data("a".utf8))
            let stream = try await opened

            // When the stream is cancelled, then read
            stream.cancel()
            var thrown: (any Error)?
            do {
                try await within("reading the cancelled stream") { for try await _ in stream.chunks {} }
            } catch {
                thrown = error
            }
            error = try #require(thrown as? FetchError)
        }

        // Then the error says cancelled, with the method and the absolute URL
        #expect(error.code == .cancelled)
        #expect(error.method == .get)
        #expect(error.url == Self.absolute, "\(error)")
    }

    @Test(arguments: Form.allCases, [CallKind.Name.download, .upload])
    func aTransferNamesTheCall(form: Form, kind: CallKind.Name) async throws {
        // Given a download or an upload under BaseURL whose connection is lost
        let spy = SpyPerformer([.failure(.connectionLost), .failure(.connectionLost)])
        let api = Self.stack(spy)
        var upload = Self.request
        upload.method = .put
        upload.body = .data(Data("up".utf8))
        // In a folder of its own, so that tests that watch the temporary folder never see it.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("naming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file")

        // When it is made with `form`
        let result: Result<Void, any Error>
        switch (form, kind) {
        case (.callback, .download):
            let outcome = LockedBox<Result<Void, any Error>?>(nil)
            api.download(Self.request, to: .file(file), progress: nil) { result in
                outcome.update { $0 = result.map { _ in } }
            }
            result = try #require(outcome.value)
        case (.callback, _):
            let outcome = LockedBox<Result<Void, any Error>?>(nil)
            api.upload(upload, progress: nil) { result in outcome.update { $0 = result.map { _ in } } }
            result = try #require(outcome.value)
        case (.async, .download):
            result = await caught { _ = try await api.download(Self.request, to: .file(file)) }
        case (.async, _):
            result = await caught { _ = try await api.upload(upload) }
        }

        // Then the error names the method and the absolute URL
        let error = try #require(result.failure as? FetchError)
        #expect(error.code == .connectionLost)
        #expect(error.method == (kind == .download ? .get : .put))
        #expect(error.url == Self.absolute, "\(error)")
    }

    @Test func aURLNoBaseURLResolvesIsNamedAsTheRequestGivesIt() async throws {
        // Given a relative URL and a stack without a BaseURL
        let spy = SpyPerformer([.hold])
        let api = spy.retrying(.exponential(maxAttempts: 2), scheduler: ImmediateScheduler())

        // When the call is cancelled before it could be sent
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await api.response(for: Self.request)
        }

        // Then the error names the URL as the request gives it
        let error = try await #require(throws: FetchError.self) { try await task.value(within: standardBound) }
        #expect(error.code == .cancelled)
        #expect(error.url?.absoluteString == "users/7")
    }
}

/// An async enhancer that never finishes preparing, until its `Task` is cancelled.
private struct Unending: AsyncEnhancer {
    func prepared(for request: any Request) async throws -> any Enhancer {
        while !Task.isCancelled { await Task.yield() }
        throw CancellationError()
    }
    func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {}
}

/// An async enhancer whose preparation fails.
private struct Refusing: AsyncEnhancer {
    func prepared(for request: any Request) async throws -> any Enhancer { throw Failing.Boom() }
    func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {}
}

/// An async error handler that throws.
private struct Throwing: AsyncErrorHandler {
    func handles(_ error: any Error, for request: any Request) -> Bool { true }
    func handle(_ error: any Error, for request: any Request) async throws -> AsyncErrorHandlingResult {
        throw Failing.Boom()
    }
}

/// What `body` returned or threw.
private func caught<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}
