import Fetch

/// The directives of `Cache-Control` fields (RFC 9111 section 5.2), read leniently: unknown ones ignored, a bad
/// time `invalid`, a repeat keeping its first value; `s-maxage` unread (section 5.2.2.10: private cache).
struct CacheDirectives: Equatable {
    /// Delta-seconds, at most 2^31 (RFC 9111 section 1.2.2); a value not digits, or negative, is invalid, and the most
    /// restrictive reading applies.
    typealias Seconds = FieldReading<Int>

    var noStore = false
    /// `no-cache` without field names: nothing stored is served without revalidation.
    var noCache = false
    /// The fields `no-cache="..."` names, lowercased: served from the cache without them
    /// (RFC 9111 section 5.2.2.4). A request's qualified `no-cache` counts as `noCache`.
    var noCacheFields: [String] = []
    var mustRevalidate = false
    var isPublic = false
    var isPrivate = false
    var onlyIfCached = false
    var maxAge = Seconds.absent
    var minFresh = Seconds.absent
    /// `max-stale`: `.value(Int.max)` when present without a value (any staleness).
    var maxStale = Seconds.absent
    /// `stale-while-revalidate` (RFC 5861 section 3): how long a stale response is served while revalidated.
    var staleWhileRevalidate = Seconds.absent
    /// `stale-if-error` (RFC 5861 section 4): how long past its lifetime a response is served when revalidating fails
    /// or meets 500, 502, 503 or 504.
    var staleIfError = Seconds.absent

    /// The largest delta-seconds a cache has to represent; larger values count as this one.
    static let greatestSeconds = 1 << 31

    init(_ headers: HTTPHeaders) {
        for value in headers.values(for: "Cache-Control") { read(value) }
    }

    init(fieldValue: String?) {
        if let fieldValue { read(fieldValue) }
        if !noCacheFields.isEmpty { noCache = true }
    }

    /// Reads the directives of one field value: names without case, arguments without their quotes.
    private mutating func read(_ value: String) {
        var rest = Substring(value)
        while !rest.isEmpty {
            // A comma inside a quoted argument does not end the directive.
            var inQuotes = false
            let end =
                rest.firstIndex { character in
                    if character == "\"" { inQuotes.toggle() }
                    return character == "," && !inQuotes
                } ?? rest.endIndex
            let part = rest[..<end].trimmingSpaces
            rest = end < rest.endIndex ? rest[rest.index(after: end)...] : ""
            guard !part.isEmpty else { continue }
            let equals = part.firstIndex(of: "=")
            var argument = equals.map { part[part.index(after: $0)...].trimmingSpaces }
            if let quoted = argument, quoted.count >= 2, quoted.first == "\"", quoted.last == "\"" {
                argument = quoted.dropFirst().dropLast()
            }
            // A repeat, on one line or two, keeps its first value (RFC 9111 section 4.2.1), as in Chrome and Safari.
            func first(_ old: Seconds) -> Seconds { old == .absent ? Self.directiveSeconds(argument) : old }
            switch (equals.map { part[..<$0].trimmingSpaces } ?? part).lowercased() {
            case "no-store": noStore = true
            case "no-cache":
                let names = (argument ?? "").fieldNames
                if names.isEmpty { noCache = true } else { noCacheFields += names }
            case "must-revalidate": mustRevalidate = true
            case "public": isPublic = true
            case "private": isPrivate = true
            case "only-if-cached": onlyIfCached = true
            case "max-age": maxAge = first(maxAge)
            case "min-fresh": minFresh = first(minFresh)
            case "max-stale": maxStale = maxStale == .absent && argument == nil ? .value(Int.max) : first(maxStale)
            case "stale-while-revalidate": staleWhileRevalidate = first(staleWhileRevalidate)
            case "stale-if-error": staleIfError = first(staleIfError)
            default: break
            }
        }
    }

    /// Reads delta-seconds: digits only; a value too large for an `Int` or above 2^31 counts as 2^31.
    static func seconds(_ text: Substring?) -> Seconds {
        guard let text, text.isASCIIDigits else { return .invalid }
        let digits = text.drop { $0 == "0" }
        guard digits.count <= 10, let value = Int(digits.isEmpty ? "0" : digits) else { return .value(greatestSeconds) }
        return .value(min(value, greatestSeconds))
    }

    /// Delta-seconds as `seconds(_:)` reads them, except that a decimal fraction (`3600.5`)
    /// counts its whole seconds, as in Firefox and Safari (an `Age` may not: RFC 9111 section 5.1).
    static func directiveSeconds(_ text: Substring?) -> Seconds {
        guard let text, let dot = text.firstIndex(of: "."), dot != text.startIndex else { return seconds(text) }
        let fraction = text[text.index(after: dot)...]
        guard fraction.isASCIIDigits else { return .invalid }
        return seconds(text[..<dot])
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }

    /// The field names of a comma-separated list (`Vary`, `Connection`, `no-cache="..."`), trimmed, lowercased.
    var fieldNames: [String] {
        split(separator: ",").map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
    }
}
