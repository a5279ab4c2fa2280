import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport
@testable import FetchCaching

/// What the layers do with each kind of call (`RequestOptions.kind`), over the spy: the
/// cases where a layer treats a stream, a download or an upload unlike a plain call.
struct CallKindTests {
    struct Feed: Request {
        var url: URL { URL(string: "https://api.example.com/feed")! }
    }

    /// What a callback stream delivered: the chunks joined, and how it ended.
    private struct Streamed {
        var body = Data()
        var end: Result<Response, any Error>?
    }

    private func stream(_ performer: some RequestPerforming, _ request: any Request = Feed()) -> LockedBox<Streamed> {
        let seen = LockedBox(Streamed())
        performer.stream(request, onChunk: { chunk in seen.update { $0.body.append(chunk) } }) { result in
            seen.update { $0.end = result }
        }
        return seen
    }

    /// The result a completion got before `start` returned; `nil` when it did not run.
    private func completed<Value: Sendable>(
        _ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
    ) -> Result<Value, any Error>? {
        let result = LockedBox<Result<Value, any Error>?>(nil)
        start { answer in result.update { $0 = answer } }
        return result.value
    }

    @Test func eachVerbSetsItsKindAndTheSpyRecordsIt() throws {
        // Given a spy that answers every call with 200 and a body
        let spy = SpyPerformer(match: { _ in .response(Response(status: 200, body: Data("x".utf8))) })
        let folder = try TemporaryFolder()

        // When one call of each kind is made
        spy.perform(Feed()) { _ in }
        spy.download(Feed(), to: .file(folder.file("feed.bin")), progress: nil) { _ in }
        spy.upload(BasicRequest(url: Feed().url, method: .post, body: .data(Data("up".utf8))), progress: nil) { _ in }
        spy.stream(Feed(), onChunk: { _ in }) { _ in }

        // Then each is recorded with its kind, in order
        #expect(spy.calls.map(\.kind) == [.plain, .download, .upload, .stream])
    }

    @Test func aStreamThroughTheCacheIsNeitherStoredNorAnsweredFromIt() throws {
        // Given a cache over a spy whose stream may be stored for a minute, and a plain GET after it
        let fresh: HTTPHeaders = ["Cache-Control": "max-age=60"]
        let spy = SpyPerformer([
            .stream([Data("chunk-1 ".utf8), Data("chunk-2".utf8)], headers: fresh),
            .response(Response(status: 200, headers: fresh, body: Data("whole".utf8))),
        ])
        let storage = MemoryCacheStorage()
        let api = spy.caching(CacheConfiguration(storage: storage))

        // When the URL is streamed, then fetched plainly
        let streamed = stream(api).value
        let plain = try #require(completed { api.perform(Feed(), completion: $0) }).get()

        // Then the reader got every streamed byte, the stream was not stored, and the plain
        // GET went to the server rather than getting an empty stored body
        #expect(streamed.body == Data("chunk-1 chunk-2".utf8))
        #expect(spy.calls.count == 2)
        #expect(plain.body == Data("whole".utf8))
        #expect(plain.metrics.cache == .miss)
        #expect(storage.response(for: "GET https://api.example.com/feed")?.body == Data("whole".utf8))
    }

    @Test func aFreshStoredResponseDoesNotAnswerAStream() throws {
        // Given a cache holding a fresh response for the URL
        let fresh: HTTPHeaders = ["Cache-Control": "max-age=60"]
        let spy = SpyPerformer([
            .response(Response(status: 200, headers: fresh, body: Data("stored".utf8))),
            .stream([Data("live".utf8)]),
        ])
        let api = spy.caching()
        _ = completed { api.perform(Feed(), completion: $0) }

        // When the URL is streamed
        let streamed = stream(api).value

        // Then the stream went to the server and its reader got the live body
        #expect(spy.calls.count == 2)
        #expect(streamed.body == Data("live".utf8))
    }

    @Test func identicalStreamsThroughCoalescingAreNeverShared() throws {
        // Given two identical streams through a coalescing layer, held by the spy
        let spy = SpyPerformer([.hold, .hold])
        let api = spy.coalescing()
        let first = stream(api)
        let second = stream(api)

        // When the server answers each with its own body
        #expect(spy.pending.count == 2)
        for (index, call) in spy.pending.enumerated() {
            let sink = try #require(call.sink)
            sink.open(Response(status: 200))
            sink.receive(Data("body \(index)".utf8))
            call.respond(Response(status: 200))
        }

        // Then each reader got the bytes of its own request
        #expect(first.value.body == Data("body 0".utf8))
        #expect(second.value.body == Data("body 1".utf8))
        #expect(api.inFlightCount == 0)
    }

    @Test func aVerifierRefusesAStreamHeadBeforeTheReaderGetsAnyOfTheBody() throws {
        // Given a JSON-only verifier over a spy that streams Server-Sent Events
        let spy = SpyPerformer([.stream(events: [ServerSentEvent(data: "hello")])])
        let api = spy.enhanced(by: ContentTypeVerifier.json)

        // When the events are streamed
        let streamed = stream(api).value

        // Then no byte reached the reader and the call failed with the verifier's error
        #expect(streamed.body.isEmpty)
        let error = #expect(throws: FetchError.self) { try streamed.end?.get() }
        #expect(error?.code == .badServerResponse)
        #expect(error?.reason.contains("text/event-stream") == true)
    }

    @Test func aVerifierLetsAStreamItAcceptsThrough() throws {
        // Given a verifier that accepts the stream's media type
        let spy = SpyPerformer([.stream(events: [ServerSentEvent(data: "hello")])])
        let api = spy.enhanced(by: ContentTypeVerifier("text/event-stream"))

        // When the events are streamed
        let streamed = stream(api).value

        // Then the reader got them, and the end says the body was streamed
        #expect(streamed.body == ServerSentEvent(data: "hello").textEventStream)
        let end = try #require(try streamed.end?.get())
        #expect(end.isStreamed)
    }

    @Test func aRetriedStreamIsCheckedAgainOnItsNewHead() throws {
        // Given a stream whose first head is a 503 and whose second is JSON
        let spy = SpyPerformer([
            .stream([Data("busy".utf8)], status: 503),
            .stream([Data("{}".utf8)], headers: ["Content-Type": "application/json"]),
        ])
        let api = spy.enhanced(by: ContentTypeVerifier.json).retrying(
            .exponential(maxAttempts: 2), scheduler: ImmediateScheduler())

        // When it is streamed
        let streamed = stream(api).value

        // Then the second attempt's body reached the reader
        #expect(spy.calls.count == 2)
        #expect(streamed.body == Data("{}".utf8))
    }

    @Test func aPreRequestHookKeepsTheCallsKind() throws {
        // Given a pre-request hook that sends a request of its own in place of the caller's
        let spy = SpyPerformer([.stream([Data("ab".utf8), Data("cd".utf8)])])
        let hook = PreRequestHook("replace") { _ in BasicRequest(url: URL(string: "https://api.example.com/other")!) }
        let api = spy.hooking(pre: [hook])

        // When a stream goes through it
        let streamed = stream(api).value

        // Then the request the hook made went down as a stream
        #expect(spy.calls.map(\.kind) == [.stream])
        #expect(streamed.body == Data("abcd".utf8))
    }

    @Test func aPostRequestHookCannotSendAgainOnceTheReaderHasTheHead() throws {
        // Given a post-request hook that sends another request after every response
        let spy = SpyPerformer([.stream([Data("ab".utf8)]), .response(Response(status: 200))])
        let hook = PostRequestHook("again") { _, original in .send(original) }
        let api = spy.hooking(post: [hook])

        // When a stream goes through it
        let streamed = stream(api).value

        // Then the reader kept what it read and the call failed naming the hook
        #expect(streamed.body == Data("ab".utf8))
        let error = #expect(throws: FetchError.self) { try streamed.end?.get() }
        #expect(error?.code == .layer)
        #expect(error?.layer == "again")
        #expect(spy.calls.count == 1)
    }

    @Test func anErrorHandlerCannotRecoverAStreamWhoseReaderHasItsHead() throws {
        // Given a handler that recovers lost connections, over a stream cut after one chunk
        let spy = SpyPerformer([.stream([Data("ab".utf8)], then: FetchError(.connectionLost, reason: "reset"))])
        let handler = CodeErrorHandler(.connectionLost) { _, _ in .recover(Response(status: 200)) }
        let api = spy.handlingErrors([handler])

        // When it is streamed
        let streamed = stream(api).value

        // Then the reader got the chunk, then the failure: the stream never looks complete
        #expect(streamed.body == Data("ab".utf8))
        let error = #expect(throws: FetchError.self) { try streamed.end?.get() }
        #expect(error?.code == .connectionLost)
    }

    @Test func aDownloadThroughTheCacheAndCoalescingGoesToTheServerEachTime() throws {
        // Given a cache and a coalescing layer over a spy answering with a fresh body
        let fresh: HTTPHeaders = ["Cache-Control": "max-age=60"]
        let spy = SpyPerformer(match: { _ in .response(Response(status: 200, headers: fresh, body: Data("pdf".utf8))) })
        let storage = MemoryCacheStorage()
        let api = spy.caching(CacheConfiguration(storage: storage)).coalescing()
        let folder = try TemporaryFolder()

        // When the same URL is downloaded twice
        for name in ["a.pdf", "b.pdf"] {
            let file = try #require(
                completed { api.download(Feed(), to: .file(folder.file(name)), progress: nil, completion: $0) }
            )
            .get()
            #expect(try Data(contentsOf: file.fileURL) == Data("pdf".utf8))
        }

        // Then both reached the server, and nothing was stored
        #expect(spy.calls.map(\.kind) == [.download, .download])
        #expect(storage.response(for: "GET https://api.example.com/feed") == nil)
    }
}
