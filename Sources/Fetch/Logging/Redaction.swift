import Foundation

/// What logs and cURL descriptions hide: the values of sensitive headers and query items,
/// and passwords in URLs.
///
/// `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` are hidden by default;
/// add your own names:
///
/// ```swift
/// let redaction = Redaction.default.adding(headers: ["X-Api-Key"], queryItems: ["token"])
/// ```
///
/// Names are compared without regard to case.
public struct Redaction: Sendable {
    /// The header names hidden by default.
    public static let defaultHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Header names whose values are hidden, lowercased.
    public private(set) var headers: Set<String>
    /// Query item names whose values are hidden, lowercased.
    public private(set) var queryItems: Set<String>
    /// What stands in for a hidden value.
    public var replacement = "<redacted>"

    /// Makes a redaction of `headers` and `queryItems`.
    public init(headers: Set<String> = Redaction.defaultHeaders, queryItems: Set<String> = []) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryItems = Set(queryItems.map { $0.lowercased() })
    }

    /// Hides the default headers and no query items.
    public static let `default` = Redaction()

    /// Hides nothing, for local debugging only.
    public static let none = Redaction(headers: [], queryItems: [])

    /// A copy that also hides `headers` and `queryItems`.
    public func adding(headers: Set<String> = [], queryItems: Set<String> = []) -> Redaction {
        var copy = self
        copy.headers.formUnion(headers.map { $0.lowercased() })
        copy.queryItems.formUnion(queryItems.map { $0.lowercased() })
        return copy
    }

    /// `value`, or the replacement when the header `name` is hidden.
    public func value(_ value: String, ofHeader name: String) -> String {
        headers.contains(name.lowercased()) ? replacement : value
    }

    /// `url` as text, with hidden query values and any password replaced.
    ///
    /// The text is for reading, not for sending: the replacement is written as it is,
    /// not percent-encoded. (Works on the string: `URLComponents` stops the process when
    /// given a character that a URL cannot hold.)
    public func string(for url: URL) -> String {
        string(forURLText: url.absoluteString)
    }

    /// `text` with every URL in it (a `scheme://` up to a space, a quote or an angle
    /// bracket) passed through ``string(for:)``: for error messages, which may quote a URL.
    func redactingURLs(in text: String) -> String {
        var result = ""
        var rest = text[...]
        while let separator = rest.range(of: "://") {
            var start = separator.lowerBound
            while start > rest.startIndex, Self.isSchemeCharacter(rest[rest.index(before: start)]) {
                start = rest.index(before: start)
            }
            let end = rest[separator.upperBound...].firstIndex(where: Self.endsURL) ?? rest.endIndex
            result += rest[..<start]
            if start == separator.lowerBound {
                result += rest[start..<separator.upperBound]  // no scheme: not a URL
            } else {
                result += string(forURLText: String(rest[start..<end]))
            }
            rest = start == separator.lowerBound ? rest[separator.upperBound...] : rest[end...]
        }
        return result + rest
    }

    private static func isSchemeCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "+-.".contains(character))
    }

    private static func endsURL(_ character: Character) -> Bool {
        character.isWhitespace || "\"'<>`".contains(character)
    }

    private func string(forURLText text: String) -> String {
        guard text.contains("@") || (!queryItems.isEmpty && text.contains("?")) else { return text }
        let afterScheme = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[afterScheme...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        var authority = String(text[afterScheme..<authorityEnd])
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            authority.replaceSubrange(authority.index(after: colon)..<at, with: replacement)
        }
        var rest = String(text[authorityEnd...])
        if !queryItems.isEmpty, let question = rest.firstIndex(of: "?") {
            let queryEnd = rest[question...].firstIndex(of: "#") ?? rest.endIndex
            let query = rest[rest.index(after: question)..<queryEnd]
                .split(separator: "&", omittingEmptySubsequences: false)
                .map { redactQueryPair(String($0)) }
                .joined(separator: "&")
            rest.replaceSubrange(rest.index(after: question)..<queryEnd, with: query)
        }
        return String(text[..<afterScheme]) + authority + rest
    }

    private func redactQueryPair(_ pair: String) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return pair }
        let name = String(pair[..<equals])
        let decoded = (name.removingPercentEncoding ?? name).lowercased()
        return queryItems.contains(decoded) ? name + "=" + replacement : pair
    }
}
