/// One `Set-Cookie` field value, parsed as RFC 6265 §5.2 says: the name and value, and the
/// attributes Fetch acts on. An attribute that is malformed is ignored, as the RFC asks; the
/// last occurrence of an attribute wins.
///
/// Fetch parses cookies itself because FoundationNetworking's
/// `HTTPCookie.cookies(withResponseHeaderFields:for:)` does not follow the RFC (measured,
/// Swift 6.3.1): it ignores `Max-Age` (no expiry, and `Max-Age=0` deletes nothing), drops
/// `Expires` when `Max-Age` is present, gives `/` as the default path instead of the
/// request's directory, accepts a `Domain` that does not match the host (`Domain=other.com`
/// from `www.example.com`), turns an empty `Domain` into `.`, reads the year `99` as 98, and
/// finds nothing under a field name spelled `set-cookie`.
struct SetCookie: Equatable, Sendable {
    /// The cookie's name: not empty.
    var name: String
    /// The cookie's value, as sent (quotes included).
    var value: String
    /// The moment `Expires` names, if any was readable.
    var expires: Date?
    /// `Max-Age` in seconds, if any was valid; zero or less means "expire now".
    var maxAge: Int?
    /// The `Domain` attribute, lowercased, without a leading dot; `nil` when absent or empty.
    var domain: String?
    /// The `Path` attribute when it starts with `/`; `nil` means the default path.
    var path: String?
    /// Whether `Secure` was present.
    var secure = false
    /// Whether `HttpOnly` was present.
    var httpOnly = false

    /// Parses one set-cookie string; `nil` when it has no `=` or an empty name, which the RFC
    /// says to ignore.
    init?(_ string: String) {
        var parts = string.split(separator: ";", omittingEmptySubsequences: false)[...]
        guard let pair = parts.popFirst(), let equals = pair.firstIndex(of: "=") else { return nil }
        name = String(pair[..<equals].trimmingSpaces)
        value = String(pair[pair.index(after: equals)...].trimmingSpaces)
        guard !name.isEmpty else { return nil }
        for attribute in parts {
            let equals = attribute.firstIndex(of: "=")
            let key = String(attribute[..<(equals ?? attribute.endIndex)].trimmingSpaces).lowercased()
            let text = equals.map { String(attribute[attribute.index(after: $0)...].trimmingSpaces) } ?? ""
            apply(key, text)
        }
    }

    /// Records attribute `key` (lowercased) with value `text` unless it is malformed.
    private mutating func apply(_ key: String, _ text: String) {
        switch key {
        case "expires":
            if let date = HTTPDate.parseCookieDate(text) { expires = date }
        case "max-age":
            if let seconds = Self.deltaSeconds(text) { maxAge = seconds }
        case "domain":
            // An empty Domain is ignored (the RFC leaves it undefined and advises ignoring it).
            guard !text.isEmpty else { return }
            let stripped = text.hasPrefix(".") ? String(text.dropFirst()) : text
            domain = stripped.lowercased()
        case "path":
            path = text.hasPrefix("/") ? text : nil
        case "secure":
            secure = true
        case "httponly":
            httpOnly = true
        default:
            break
        }
    }

    /// `Max-Age`'s value: an optional `-` then digits only; a number too large for `Int`
    /// counts as the largest one.
    private static func deltaSeconds(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard digits.isASCIIDigits else { return nil }
        return Int(text) ?? (text.hasPrefix("-") ? Int.min : Int.max)
    }
}
