/// A `Content-Range` header of a byte range (RFC 9110, section 14.4): `bytes 0-99/1000`,
/// `bytes 0-99/*`, or `bytes */1000` for an unsatisfied range (a 416).
struct ContentRange: Hashable, Sendable {
    /// The first and last byte of the part sent, both included; `nil` for `bytes */length`.
    var first: Int64?
    var last: Int64?
    /// The whole representation's length; `nil` for `*`.
    var length: Int64?
}

extension ContentRange {
    init?(_ text: String) {
        let syntax = /\s*bytes\s+(?:([0-9]+)-([0-9]+)|\*)\/([0-9]+|\*)\s*/.ignoresCase()
        guard let (_, first, last, total) = text.wholeMatch(of: syntax)?.output else { return nil }
        length = Int64(total)
        // `bytes */length`, the range a 416 names, must give the length.
        if length == nil, total != "*" || first == nil { return nil }
        guard let first, let last else { return }
        guard let first = Int64(first), let last = Int64(last), first <= last, last < length ?? .max else { return nil }
        (self.first, self.last) = (first, last)
    }
}
