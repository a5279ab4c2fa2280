import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport

/// Streams over the spy: scripted chunks, events and failures, through the async and the
/// callback API and through layers, synchronous for callbacks.
struct SpyStreamTests {
    struct Feed: Request {
        var url: URL { URL(string: "https://api.example.com/feed")! }
    }

    @Test func theCallbackAPIDeliversHeadChunksThenCompletionBeforeItReturns() {
        // Given a spy scripted with two chunks
        let spy = SpyPerformer([.stream([Data("ab".utf8), Data("cd".utf8)], headers: ["X-Feed": "1"])])
        let seen = Recorder<String>()

        // When the feed is streamed with callbacks
        spy.stream(
            Feed(), onResponse: { seen.record("head \($0.status) \($0.headers.first("X-Feed") ?? "")") },
            onChunk: { seen.record("chunk " + String(decoding: $0, as: UTF8.self)) },
            completion: { seen.record("end \((try? $0.get().body.count).map(String.init) ?? "error")") })

        // Then every callback ran, in order, before `stream` returned; the final body is empty
        #expect(seen.all == ["head 200 1", "chunk ab", "chunk cd", "end 0"])
        #expect(spy.calls.count == 1)
    }

    @Test func aFailureMidStreamComesAfterTheChunksBeforeIt() {
        // Given a stream cut after one chunk
        let spy = SpyPerformer([.stream([Data("ab".utf8)], then: FetchError(.connectionLost, reason: "reset"))])
        let seen = Recorder<String>()

        // When streamed with callbacks
        spy.stream(Feed(), onChunk: { seen.record(String(decoding: $0, as: UTF8.self)) }) { result in
            if case .failure(let error as FetchError) = result { seen.record("\(error.code)") }
        }

        // Then the chunk came, then the error, named after the request
        #expect(seen.all == ["ab", "connectionLost"])
    }

    @Test func theAsyncAPIHasTheHeadBeforeTheFirstChunkAndThrowsAfterTheChunks() async throws {
        // Given events, then a lost connection
        let spy = SpyPerformer([
            .stream(
                events: [ServerSentEvent(data: "one", id: "1"), ServerSentEvent(data: "two")],
                then: FetchError(.connectionLost, reason: "reset"))
        ])

        // When the stream is opened and its events read
        let stream = try await spy.stream(Feed())
        let events = Recorder<ServerSentEvent>()
        await #expect(throws: FetchError.self) {
            try await within("the events") { for try await event in stream.events { events.record(event) } }
        }

        // Then the head says text/event-stream, both events arrived before the error
        #expect(stream.response.mediaType == "text/event-stream")
        #expect(stream.response.request is Feed)
        #expect(events.all.map(\.data) == ["one", "two"])
        #expect(events.all.map(\.id) == ["1", "1"])
    }

    @Test func linesAreSplitAcrossChunks() async throws {
        // Given NDJSON whose lines straddle the chunks
        let spy = SpyPerformer([.stream([Data("{\"a\":1}\r\n{\"b\"".utf8), Data(":2}\n{\"c\":3}".utf8)])])

        // When read as lines
        let lines = try await spy.stream(Feed()).lines.collected(within: standardBound, "the lines")

        // Then every line is whole
        #expect(lines == ["{\"a\":1}", "{\"b\":2}", "{\"c\":3}"])
    }

    @Test func aPlainResponseIsOneChunk() async throws {
        // Given a spy answering with an ordinary response
        let spy = SpyPerformer([.text("whole body")])

        // When streamed
        let chunks = try await spy.stream(Feed()).chunks.collected(within: standardBound, "the chunks")

        // Then the body is one chunk
        #expect(chunks == [Data("whole body".utf8)])
    }

    @Test func aStatusOtherThan2xxThrowsHttpStatusWithTheBodyStartUnlessAccepted() async throws {
        // Given two 503 streams
        let spy = SpyPerformer([.stream([Data("busy".utf8)], status: 503), .stream([Data("busy".utf8)], status: 503)])

        // When streamed normally, then accepting any status
        let error = await #expect(throws: FetchError.self) { _ = try await spy.stream(Feed()) }
        let accepted = try await spy.stream(Feed(), acceptingAnyStatus: true)
        let body = try await accepted.chunks.collected(within: standardBound, "the body").reduce(Data(), +)

        // Then the first throws httpStatus quoting the body, the second delivers it
        #expect(error?.code == .httpStatus)
        #expect(error?.response?.body == Data("busy".utf8))
        #expect(error?.description.contains("busy") == true)
        #expect(accepted.response.status == 503)
        #expect(body == Data("busy".utf8))
    }

    @Test func leavingTheLoopCancelsTheCall() async throws {
        // Given a held stream call
        let spy = SpyPerformer([.hold])
        let opening = Task { try await spy.stream(Feed()) }
        // (the opening Task waits behind the run's queued tests: over 10 s at a load average of 20)
        let call = try await spy.nextCall(timeout: .seconds(60))
        let sink = try #require(call.sink)
        sink.open(Response(status: 200))
        sink.receive(Data("first".utf8))
        let stream = try await opening.value(within: standardBound, "the opening stream")

        // When the loop leaves after the first chunk
        try await within("the first chunk") { for try await _ in stream.chunks { break } }

        // Then the call was cancelled, and what still arrives is dropped
        #expect(call.isCancelled)
        sink.receive(Data("late".utf8))
        await #expect(throws: FetchError.self) {
            try await within("the dropped rest") { for try await _ in stream.chunks {} }
        }
    }

    @Test func cancellingTheReadingTaskCancelsTheCall() async throws {
        // Given a held stream call with its head
        let spy = SpyPerformer([.hold])
        let opening = Task { try await spy.stream(Feed()) }
        // (the opening Task waits behind the run's queued tests: over 10 s at a load average of 20)
        let call = try await spy.nextCall(timeout: .seconds(60))
        call.sink?.open(Response(status: 200))
        let stream = try await opening.value(within: standardBound, "the opening stream")

        // When the task reading it is cancelled while it waits for a chunk
        let reading = Task { for try await _ in stream.chunks {} }
        reading.cancel()

        // Then the loop throws cancelled and the call is cancelled
        let error = await #expect(throws: FetchError.self) { try await reading.value(within: standardBound) }
        #expect(error?.code == .cancelled)
        #expect(call.isCancelled)
    }

    @Test func cancellingTheCallbackHandleStopsChunksAndCompletesOnceAsCancelled() throws {
        // Given a held stream call with callbacks
        let spy = SpyPerformer([.hold])
        let seen = Recorder<String>()
        let handle = spy.stream(Feed(), onChunk: { seen.record(String(decoding: $0, as: UTF8.self)) }) { result in
            seen.record((try? result.get()).map { _ in "done" } ?? "failed")
        }
        let sink = try #require(spy.pending.first?.sink)
        sink.open(Response(status: 200))
        sink.receive(Data("a".utf8))

        // When the handle is cancelled and more bytes come
        handle.cancel()
        sink.receive(Data("b".utf8))
        handle.cancel()

        // Then no chunk followed the cancel and the completion ran once, failed
        #expect(seen.all == ["a", "failed"])
    }

    @Test func retryAppliesBeforeTheHeadButNotOnceTheStreamHasStarted() {
        // Given a stack that retries, over a 503, then a stream cut part way, then one more answer
        let spy = SpyPerformer([
            .stream([], status: 503),
            .stream([Data("ab".utf8)], then: FetchError(.connectionLost, reason: "reset")),
            .text("never sent"),
        ])
        let stack = spy.retrying(.constant(maxAttempts: 5, delay: .seconds(1)), scheduler: ImmediateScheduler())
        let seen = Recorder<String>()

        // When streamed
        stack.stream(Feed(), onChunk: { seen.record(String(decoding: $0, as: UTF8.self)) }) { result in
            if case .failure(let error as FetchError) = result { seen.record("\(error.code)") }
        }

        // Then the 503 was retried, the cut stream was not: its error is delivered as it is
        #expect(spy.calls.count == 2)
        #expect(seen.all == ["ab", "connectionLost"])
    }

    @Test func refreshAppliesToA401BeforeTheStreamStarts() {
        // Given a 401, then the stream, under a token and a refresh handler
        let store = TokenStore("old")
        let spy = SpyPerformer([.stream([], status: 401), .stream([Data("ok".utf8)])])
        let stack = spy.enhanced(by: BearerToken(store)).refreshing(
            with: RefreshTokenHandler { done in
                store.token = "new"
                done(.success(()))
            })
        let seen = Recorder<String>()

        // When streamed
        stack.stream(Feed(), onChunk: { seen.record(String(decoding: $0, as: UTF8.self)) }) { result in
            seen.record((try? result.get()).map { "\($0.status)" } ?? "failed")
        }

        // Then it was sent again with the new token and streamed
        #expect(spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Authorization") } == ["Bearer old", "Bearer new"])
        #expect(seen.all == ["ok", "200"])
    }

    @Test func enhancersHooksLoggingAndActivityApplyToAStream() {
        // Given a stream under a base URL, a header, logging and activity reporting
        struct Relative: Request { var url: URL { URL(string: "events")! } }
        let spy = SpyPerformer([.stream(events: [ServerSentEvent(data: "x")])])
        let lines = Recorder<String>()
        let activity = Recorder<String>()
        let stack = spy.enhanced(by: BaseURL("https://api.example.com"), FixedHeaders(["Accept": "text/event-stream"]))
            .reportingActivity(to: ActivityRecorder(activity))
            .logging(LogConfiguration(options: .default) { lines.record($0.message) })
        let done = Recorder<Bool>()

        // When streamed
        stack.stream(Relative(), onChunk: { _ in }) { done.record((try? $0.get()) != nil) }

        // Then the request got the base URL and header, was logged, and counted as activity
        #expect(done.all == [true])
        #expect(spy.urlRequests.first??.url?.absoluteString == "https://api.example.com/events")
        #expect(spy.urlRequests.first??.value(forHTTPHeaderField: "Accept") == "text/event-stream")
        #expect(!lines.all.isEmpty)
        #expect(activity.all.count == 2)
    }
}
