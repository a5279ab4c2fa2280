import Foundation
import Testing
@testable import Fetch

/// Lines split at LF and CRLF, incrementally, within a limit.
struct LineSplitterTests {
    private func split(_ text: String, pieces size: Int, endings: LineSplitter.Endings = .lines) throws -> [String] {
        var splitter = LineSplitter(endings: endings, maximumLength: 1 << 20)
        let bytes = Array(text.utf8)
        var lines: [Data] = []
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + size)
            lines += try splitter.feed(Data(bytes[index..<end]))
            index = end
        }
        if let last = splitter.finish() { lines.append(last) }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func lfAndCrlfEndLinesWhereverThePiecesSplit() throws {
        // Given NDJSON with LF and CRLF line ends, an empty line, and a lone CR inside a line
        let text = "{\"a\":1}\r\n{\"b\":2}\n\na\rb\r\n"

        // When split in pieces of every size
        for size in 1...text.utf8.count {
            // Then the lines are the same, without their ends, and a lone CR stays
            #expect(try split(text, pieces: size) == ["{\"a\":1}", "{\"b\":2}", "", "a\rb"], "pieces of \(size)")
        }
    }

    @Test func aLastLineWithoutItsEndIsKept() throws {
        // Given a body whose last line has no line end
        // When split
        let lines = try split("one\ntwo", pieces: 2)

        // Then both lines come out
        #expect(lines == ["one", "two"])
    }

    @Test func sseEndingsAlsoSplitAtALoneCR() throws {
        // Given CR, LF and CRLF
        // When split for Server-Sent Events in one-byte pieces
        let lines = try split("a\rb\nc\r\nd\r", pieces: 1, endings: .sse)

        // Then each ends a line once
        #expect(lines == ["a", "b", "c", "d"])
    }

    @Test func aLineOverTheLimitFailsWithBodyTooLarge() throws {
        // Given a splitter limited to 10 bytes
        var splitter = LineSplitter(endings: .lines, maximumLength: 10)

        // When a complete line of 10 bytes and then 11 bytes without an end arrive
        let lines = try splitter.feed(Data("0123456789\n".utf8))

        // Then the first is a line and the second fails
        #expect(lines.count == 1)
        #expect {
            _ = try splitter.feed(Data("0123456789A".utf8))
        } throws: { ($0 as? FetchError)?.code == .bodyTooLarge }
    }
}
