import Foundation
import Testing
import Fetch
import FetchTesting

/// The Server-Sent Events parser against the WHATWG rules, fed in pieces of every size.
struct EventStreamParserTests {
    /// Feeds `text` to a new parser in pieces of `size` bytes and returns every event.
    private func parse(_ bytes: [UInt8], pieces size: Int) throws -> [ServerSentEvent] {
        var parser = EventStreamParser()
        var events: [ServerSentEvent] = []
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + size)
            events += try parser.feed(Data(bytes[index..<end]))
            index = end
        }
        parser.finish()
        return events
    }

    /// The same events whatever the piece size, from 1 byte to the whole stream at once.
    private func parseEverySplit(_ text: String) throws -> [ServerSentEvent] {
        let bytes = Array(text.utf8)
        let whole = try parse(bytes, pieces: max(1, bytes.count))
        for size in 1...max(1, bytes.count) {
            #expect(try parse(bytes, pieces: size) == whole, "pieces of \(size) bytes")
        }
        return whole
    }

    @Test func multiLineDataIsJoinedWithLFAndTheTypeDefaultsToMessage() throws {
        // Given two data lines, then a typed event
        let text = "data: first\ndata: second\n\nevent: add\ndata: 3\n\n"

        // When parsed in pieces of every size
        let events = try parseEverySplit(text)

        // Then the data is joined with LF, and types are message then add
        #expect(
            events == [
                ServerSentEvent(type: "message", data: "first\nsecond"),
                ServerSentEvent(type: "add", data: "3"),
            ])
    }

    @Test func crLfAndCrlfAllEndLinesEvenSplitAcrossPieces() throws {
        // Given the same stream with CR, LF and CRLF line ends mixed
        let text = "data: a\r\ndata: b\rdata: c\n\r\nid: 1\r\rdata: d\r\n\r\n"

        // When parsed in pieces of every size (CRLF split between two pieces included)
        let events = try parseEverySplit(text)

        // Then every line end counts once
        #expect(events == [ServerSentEvent(data: "a\nb\nc"), ServerSentEvent(data: "d", id: "1")])
    }

    @Test func aByteOrderMarkAtTheStartIsSkippedOnlyThere() throws {
        // Given a stream starting with a BOM, and a BOM later in a data line
        let text = "\u{FEFF}data: x\n\ndata: \u{FEFF}y\n\n"

        // When parsed in pieces of every size (the BOM split across pieces included)
        let events = try parseEverySplit(text)

        // Then the first BOM is gone and the later one is data
        #expect(events.map(\.data) == ["x", "\u{FEFF}y"])
    }

    @Test func commentsAreIgnoredAndOneSpaceAfterTheColonIsDropped() throws {
        // Given comments, a field without a space, one with two spaces, and one without a colon
        let text = ": a comment\n:another\ndata:tight\ndata:  two spaces\ndata\n\n"

        // When parsed
        let events = try parseEverySplit(text)

        // Then comments add nothing, one space is dropped, and `data` alone adds an empty line
        #expect(events == [ServerSentEvent(data: "tight\n two spaces\n")])
    }

    @Test func idPersistsAndAnIdHoldingNULIsIgnored() throws {
        // Given an id, an event without one, an id with NUL, and an empty id
        let text = "id: 7\ndata: a\n\ndata: b\n\nid: 8\u{0}x\ndata: c\n\nid\ndata: d\n\n"

        // When parsed
        let events = try parseEverySplit(text)

        // Then the last event ID carries over, NUL is ignored, and an empty id resets it
        #expect(events.map(\.id) == ["7", "7", "7", ""])
    }

    @Test func retryIsTakenOnlyWhenItIsAllDigits() throws {
        // Given valid and invalid retry fields
        let text = "retry: 1500\ndata: a\n\nretry: 12ms\ndata: b\n\nretry: -5\nretry:\nretry: 30\ndata: c\n\n"

        // When parsed
        let events = try parseEverySplit(text)

        // Then only digits set the reconnection time
        #expect(events.map(\.retry) == [1500, 1500, 30])
    }

    @Test func anEventIsDispatchedOnlyAtABlankLineAndOnlyWithData() throws {
        // Given an event with no data, a type-only event, and an incomplete last event
        let text = "event: ping\n\nid: 3\n\ndata: kept\n\ndata: never finished\n"

        // When parsed and the stream ends
        let events = try parseEverySplit(text)

        // Then only the event with data and a blank line comes out; the type of the empty
        // one does not leak into it
        #expect(events == [ServerSentEvent(type: "message", data: "kept", id: "3")])
    }

    @Test func aLastLineWithoutItsEndIsDiscarded() throws {
        // Given a stream ending in the middle of a blank line's wait
        var parser = EventStreamParser()

        // When fed a complete data line without the blank line, then ended
        let events = try parser.feed(Data("data: x\n".utf8))
        parser.finish()

        // Then nothing was dispatched
        #expect(events.isEmpty)
    }

    @Test func malformedFieldsAreIgnoredNeverAnError() throws {
        // Given unknown fields, a field name in other casing, invalid UTF-8 and a bare colon
        var bytes = Array("DATA: no\nfoo: bar\n:\ndata: ok ".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("\n\n".utf8)

        // When parsed
        let events = try parse(bytes, pieces: 3)

        // Then the one event carries only its data, invalid bytes as U+FFFD
        #expect(events == [ServerSentEvent(data: "ok \u{FFFD}\u{FFFD}")])
    }

    @Test func aLineOverTheLimitFailsWithoutHoldingMore() throws {
        // Given a parser limited to 1 KiB lines
        var parser = EventStreamParser(maximumLineLength: 1024, maximumEventSize: 1 << 20)

        // When 2 KiB arrive without a line end, in pieces
        _ = try parser.feed(Data(repeating: UInt8(ascii: "a"), count: 600))

        // Then the piece that crosses the limit fails with bodyTooLarge
        #expect {
            _ = try parser.feed(Data(repeating: UInt8(ascii: "a"), count: 600))
        } throws: { ($0 as? FetchError)?.code == .bodyTooLarge }
    }

    @Test func anEventOverTheLimitFails() throws {
        // Given a parser limited to 100 bytes of data per event
        var parser = EventStreamParser(maximumLineLength: 1024, maximumEventSize: 100)

        // When short data lines add up past it without a blank line
        // Then it fails with bodyTooLarge
        #expect {
            for _ in 0..<20 { _ = try parser.feed(Data("data: 0123456789\n".utf8)) }
        } throws: { ($0 as? FetchError)?.code == .bodyTooLarge }
    }

    @Test func scriptedEventsRoundTripThroughTheWireFormat() throws {
        // Given events with types, ids, retry and multi-line data
        let events = [
            ServerSentEvent(type: "delta", data: "one\ntwo", id: "1", retry: 250),
            ServerSentEvent(data: "", id: "1", retry: 250),
        ]

        // When encoded the way the spy sends them and parsed again
        var parser = EventStreamParser()
        let parsed = try parser.feed(events.map(\.textEventStream).reduce(Data(), +))

        // Then they come back equal
        #expect(parsed == events)
    }
}
