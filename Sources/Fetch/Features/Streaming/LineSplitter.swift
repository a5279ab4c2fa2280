/// Splits bytes that arrive in pieces into lines, without their ends; a CRLF split across two
/// pieces is still one line end. A line longer than ``maximumLength`` bytes without its end fails.
struct LineSplitter: Sendable {
    enum Endings: Sendable {
        /// LF or CRLF; a lone CR stays in the line.
        case lines
        /// LF, CRLF or a lone CR (the Server-Sent Events format).
        case sse
    }

    let endings: Endings
    let maximumLength: Int
    /// The start of a line whose end has not arrived yet.
    private(set) var pending = Data()
    /// The last piece ended with a CR that ended a line (SSE): an LF first in the next belongs to it.
    private(set) var skipLF = false

    static func tooLong(_ limit: Int) -> FetchError {
        FetchError(.bodyTooLarge, reason: "a line longer than the limit of \(limit) bytes arrived without a line end")
    }

    /// The lines `data` completes, in order; throws `bodyTooLarge` when a line grows past the limit.
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

    private mutating func take(_ piece: Data) throws -> Data {
        guard pending.count + piece.count <= maximumLength else { throw Self.tooLong(maximumLength) }
        var line = pending
        line.append(piece)
        pending = Data()
        return line
    }
}
