import Fetch

/// A request's `Range` answered from a stored whole response, as Chrome does: one byte range (`first-last`, `first-`,
/// `-suffix`: RFC 9110 section 14.1.2) of a fresh `200` without `Content-Encoding`, as a `206`. Anything else goes to
/// the server as written and is not stored (RFC 9111 section 3.4: a cache combines no partial responses).
enum CacheRange {
    /// The bytes `Range` value `field` asks for in a body of `count` bytes; `nil` leaves the request to the server.
    static func bytes(_ field: String, count: Int) -> Range<Int>? {
        let text = Substring(field).trimmingSpaces
        guard text.lowercased().hasPrefix("bytes="), count > 0 else { return nil }
        let spec = text.dropFirst(6)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let (first, last) = (spec[..<dash].trimmingSpaces, spec[spec.index(after: dash)...].trimmingSpaces)
        func number(_ digits: Substring) -> Int? {
            digits.isASCIIDigits ? Int(digits) : nil
        }
        guard !first.isEmpty else {
            guard let suffix = number(last), suffix > 0 else { return nil }
            return max(0, count - suffix)..<count
        }
        guard let start = number(first), start < count else { return nil }
        guard !last.isEmpty else { return start..<count }
        guard let end = number(last), end >= start else { return nil }
        return start..<min(end, count - 1) + 1
    }

    /// The `206` that answers `Range` value `field` from `whole`, a hit; `nil` when the server must answer it.
    static func partial(of whole: Response, _ field: String) -> Response? {
        guard whole.status == 200, !whole.headers.contains("Content-Encoding"),
            let bytes = bytes(field, count: whole.body.count)
        else { return nil }
        var partial = whole
        partial.status = 206
        partial.body = Data(whole.body.dropFirst(bytes.lowerBound).prefix(bytes.count))
        partial.headers.set("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(whole.body.count)")
        partial.headers.set("Content-Length", String(bytes.count))
        return partial
    }
}
