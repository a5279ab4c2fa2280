/// A `Content-Range` header of a byte range (RFC 9110, section 14.4): `bytes 0-99/1000`,
/// `bytes 0-99/*`, or `bytes */1000` for an unsatisfied range (a 416).
struct ContentRange: Hashable, Sendable {
    /// The first and last byte of the part sent, both included; `nil` for `bytes */length`.
    var first: Int64?
    var last: Int64?
    /// The whole representation's length; `nil` for `*`.
    var length: Int64?

    /// The number of bytes of the part sent; `nil` for `bytes */length`.
    var count: Int64? {
        guard let first, let last else { return nil }
        return last - first + 1
    }
}

extension ContentRange {
    /// Reads `text`; `nil` when it is not a well-formed byte range.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        if halves[1] != "*" {
            guard let total = Self.number(halves[1]) else { return nil }
            length = total
        }
        if halves[0] == "*" {
            guard length != nil else { return nil }
            return
        }
        let ends = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let first = Self.number(ends[0]), let last = Self.number(ends[1]), first <= last else {
            return nil
        }
        if let length, last >= length { return nil }
        self.first = first
        self.last = last
    }

    /// A non-negative decimal with no sign, spaces or other characters.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int64(text)
    }
}
