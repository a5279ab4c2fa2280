import Foundation
import Testing
import Fetch
import FetchTesting

/// A stream's log line says how it ended and how many body bytes it carried.
@Suite struct StreamLogTests {
    struct Feed: Request { var url: URL { URL(string: "https://api.example.com/feed")! } }

    private func logged(_ spy: SpyPerformer) -> (LayeredPerformer, Recorder<LogEvent>) {
        let events = Recorder<LogEvent>()
        return (spy.logging(LogConfiguration(options: [.method, .url, .status]) { events.record($0) }), events)
    }

    @Test func aStreamThatEndsSaysHowManyBytesArrived() {
        // Given a stream of two chunks, 4 bytes in all
        let (api, events) = logged(SpyPerformer([.stream([Data("ab".utf8), Data("cd".utf8)])]))

        // When it is read to the end with callbacks
        api.stream(Feed(), onChunk: { _ in }) { _ in }

        // Then the line says it ended, with the bytes
        #expect(events.all.map(\.message) == ["GET https://api.example.com/feed -> 200, stream ended after 4 bytes"])
        #expect(events.all.map(\.level) == [.info])
    }

    @Test func aPlainResponseToAStreamCountsItsBody() {
        // Given a performer that answers a stream with a whole body
        let (api, events) = logged(SpyPerformer([.text("hello")]))

        // When it is streamed
        api.stream(Feed(), onChunk: { _ in }) { _ in }

        // Then the line counts that body
        #expect(events.all.map(\.message) == ["GET https://api.example.com/feed -> 200, stream ended after 5 bytes"])
    }

    @Test func aStreamDroppedAfterItsHeadSaysTheReaderStoppedIt() throws {
        // Given a held stream that has sent its head and one chunk
        let spy = SpyPerformer([.hold])
        let (api, events) = logged(spy)
        let handle = api.stream(Feed(), onChunk: { _ in }) { _ in }
        let sink = try #require(spy.pending.first?.sink)
        sink.open(Response(status: 200))
        sink.receive(Data("abc".utf8))

        // When the reader cancels it
        handle.cancel()

        // Then the line says the reader stopped it after 3 bytes, not a bare "cancelled"
        #expect(
            events.all.map(\.message) == [
                "GET https://api.example.com/feed -> 200, stream stopped by its reader after 3 bytes read (3 received)"
            ])
        #expect(events.all.map(\.level) == [.error])
    }

    @Test func aStreamThatFailsPartWaySaysHowFarItGot() {
        // Given a stream cut after one chunk of 2 bytes
        let (api, events) = logged(
            SpyPerformer([.stream([Data("ab".utf8)], then: FetchError(.connectionLost, reason: "reset"))]))

        // When it is read
        api.stream(Feed(), onChunk: { _ in }) { _ in }

        // Then the line has the head's status, the bytes, and the error
        #expect(
            events.all.map(\.message) == [
                "GET https://api.example.com/feed -> 200, stream failed after 2 bytes: connectionLost: reset"
            ])
    }

    @Test func aStreamThatFailsBeforeItsHeadIsLoggedAsAFailure() {
        // Given a stream whose call fails before any head
        let (api, events) = logged(SpyPerformer([.failure(.cannotConnect, reason: "refused")]))

        // When it is streamed
        api.stream(Feed(), onChunk: { _ in }) { _ in }

        // Then the line is the failure's, as for any call
        #expect(events.all.map(\.message) == ["GET https://api.example.com/feed -> cannotConnect: refused"])
    }
}
