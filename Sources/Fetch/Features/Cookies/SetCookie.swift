/// One `Set-Cookie` field value, parsed by RFC 6265 §5.2: malformed attributes ignored, the last one winning.
/// FoundationNetworking's `HTTPCookie.cookies(withResponseHeaderFields:for:)` breaks the RFC as the SafetyOnLinux
/// article lists, and also drops `Expires` when `Max-Age` is present, turns an empty `Domain` into `.` and finds
/// nothing under a field name spelled `set-cookie`.
struct SetCookie: Equatable, Sendable {
    var name: String
    /// As sent, quotes included.
    var value: String
    var expires: Date?
    /// In seconds; zero or less means "expire now".
    var maxAge: Int?
    /// Lowercased, without a leading dot; `nil` when absent or empty.
    var domain: String?
    /// Only when it starts with `/`; `nil` means the default path.
    var path: String?
    var secure = false
    var httpOnly = false

    /// `nil` when there is no `=` or the name is empty, which the RFC says to ignore.
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
            switch key {
            case "expires":
                if let date = HTTPDate.parseCookieDate(text) { expires = date }
            case "max-age":
                if let seconds = Self.deltaSeconds(text) { maxAge = seconds }
            case "domain":
                // An empty Domain is ignored (the RFC leaves it undefined and advises ignoring it).
                guard !text.isEmpty else { continue }
                let stripped = text.hasPrefix(".") ? String(text.dropFirst()) : text
                // `Domain=.` leaves an empty domain attribute: the cookie is host-only (RFC 6265 §5.3 step 6).
                domain = stripped.isEmpty ? nil : stripped.lowercased()
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
    }

    /// An optional `-` then digits only; a number too large for `Int` counts as the largest.
    private static func deltaSeconds(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text[...]
        guard digits.isASCIIDigits else { return nil }
        return Int(text) ?? (text.hasPrefix("-") ? Int.min : Int.max)
    }
}
