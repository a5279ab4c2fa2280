/// Splits bytes that arrive in pieces into lines, incrementally: a line end split across
/// two pieces (`\r` at the end of one, `\n` at the start of the next) is still one line end.
///
/// Lines end at LF or CRLF; with ``Endings/sse`` a lone CR ends a line too, as the
/// Server-Sent Events format says. The line end is not part of the line. A line longer
/// than ``maximumLength`` without its end fails, so the bytes held never grow past the limit.
struct LineSplitter: Sendable {
    /// Which bytes end a line.
    enum Endings: Sendable {
        /// LF or CRLF; a lone CR stays in the line.
        case lines
        /// LF, CRLF or a lone CR (the Server-Sent Events format).
        case sse
    }

    /// The longest line held without its end, in bytes.
    let maximumLength: Int
    let endings: Endings
    /// The start of a line whose end has not arrived yet.
    private var pending = Data()
    /// The last piece ended with a CR that ended a line (SSE): an LF first in the next one
    /// belongs to it.
    private var skipLF = false

    init(endings: Endings, maximumLength: Int) {
        self.endings = endings
        self.maximumLength = maximumLength
    }

    /// The line too long error, for `limit` bytes.
    static func tooLong(_ limit: Int) -> FetchError {
        FetchError(.bodyTooLarge, reason: "a line longer than the limit of \(limit) bytes arrived without a line end")
    }

    /// Takes the next piece and returns the lines it completes, in order.
    /// - Throws: ``FetchError/Code-swift.enum/bodyTooLarge`` when a line grows past the limit.
    mutating func feed(_ data: Data) throws -> [Data] {
        var lines: [Data] = []
        var start = data.startIndex
        var index = data.startIndex
        if skipLF, index < data.endIndex {
            skipLF = false
            if data[index] == 0x0A {
                index += 1
                start = index
            }
        }
        while index < data.endIndex {
            let byte = data[index]
            if byte == 0x0A {
                var end = index
                // CRLF: the CR may be the last byte of the previous piece.
                if end > start, data[end - 1] == 0x0D {
                    end -= 1
                } else if end == start, pending.last == 0x0D, endings == .lines {
                    pending.removeLast()
                }
                lines.append(try take(data[start..<end]))
                start = index + 1
            } else if byte == 0x0D, endings == .sse {
                lines.append(try take(data[start..<index]))
                if index + 1 < data.endIndex {
                    if data[index + 1] == 0x0A { index += 1 }
                } else {
                    skipLF = true
                }
                start = index + 1
            }
            index += 1
        }
        if start < data.endIndex {
            guard pending.count + (data.endIndex - start) <= maximumLength else { throw Self.tooLong(maximumLength) }
            pending.append(data[start..<data.endIndex])
        }
        return lines
    }

    /// Ends the input: the last line if it had no line end, or `nil`.
    mutating func finish() -> Data? {
        defer {
            pending = Data()
            skipLF = false
        }
        guard !pending.isEmpty else { return nil }
        if endings == .lines, pending.last == 0x0D { pending.removeLast() }
        return pending
    }

    /// The pending start of a line with `piece` appended, as one line.
    private mutating func take(_ piece: Data) throws -> Data {
        guard pending.count + piece.count <= maximumLength else { throw Self.tooLong(maximumLength) }
        var line = pending
        line.append(piece)
        pending = Data()
        return line
    }
}
