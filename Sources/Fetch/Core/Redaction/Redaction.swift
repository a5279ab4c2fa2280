/// What logs, printed values and cURL descriptions hide: the values of sensitive headers,
/// query items, form fields and JSON keys, and passwords in URLs. Names are compared without case.
public struct Redaction: Sendable {
    /// The header names hidden by default.
    public static let defaultHeaders: Set<String> = HTTPHeaders.credentialNames.union(["set-cookie"])

    /// Header names whose values are hidden, lowercased.
    public private(set) var headers: Set<String>
    /// Query item names whose values are hidden, lowercased (in bodies too).
    public private(set) var queryItems: Set<String>
    /// Form field and JSON key names whose values are hidden, lowercased (in query strings too).
    public private(set) var bodyFields: Set<String>
    /// Words that make a name secret (see ``hides(name:)``); ``defaultSecretWords`` by default.
    public var secretWords: Set<String>
    /// What stands in for a hidden value.
    public var replacement = "<redacted>"

    /// Makes a redaction that hides the values of these names, and of names holding a `secretWords` word.
    public init(
        headers: Set<String> = Redaction.defaultHeaders, queryItems: Set<String> = [],
        bodyFields: Set<String> = [], secretWords: Set<String> = Redaction.defaultSecretWords
    ) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryItems = Set(queryItems.map { $0.lowercased() })
        self.bodyFields = Set(bodyFields.map { $0.lowercased() })
        self.secretWords = Set(secretWords.map { $0.lowercased() })
    }

    /// Hides the default headers and whatever is named like a secret.
    public static let `default` = Redaction()

    /// Hides nothing, for local debugging only.
    public static let none = Redaction(headers: [], queryItems: [], bodyFields: [], secretWords: [])

    /// A copy that also hides `headers`, `queryItems` and `bodyFields`.
    public func adding(
        headers: Set<String> = [], queryItems: Set<String> = [], bodyFields: Set<String> = []
    ) -> Redaction {
        var copy = self
        copy.headers.formUnion(headers.map { $0.lowercased() })
        copy.queryItems.formUnion(queryItems.map { $0.lowercased() })
        copy.bodyFields.formUnion(bodyFields.map { $0.lowercased() })
        return copy
    }

    /// `value`, or the replacement when header `name` is in ``headers`` or named like a secret.
    public func value(_ value: String, ofHeader name: String) -> String {
        headers.contains(name.lowercased()) || isNamedLikeSecret(name) ? replacement : value
    }

    /// The header fields of `urlRequest` as `Name: value` lines, sorted by name, hidden values replaced.
    func headerLines(of urlRequest: URLRequest) -> [String] {
        let fields = (urlRequest.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
        return fields.map { "\($0.key): \(value($0.value, ofHeader: $0.key))" }
    }

    func headerLines(of headers: HTTPHeaders) -> [String] {
        headers.map { "\($0.name): \(value($0.value, ofHeader: $0.name))" }
    }

    /// `url` as text for reading, hidden query values and any password replaced (not percent-encoded).
    /// Works on the string: `URLComponents` stops the process on a character a URL cannot hold.
    public func string(for url: URL) -> String {
        string(forURLText: url.absoluteString)
    }

    /// `text` with every URL in it passed through ``string(for:)``: for error messages, which may quote one.
    func redactingURLs(in text: String) -> String {
        text.replacing(/[A-Za-z0-9+.\-]+:\/\/[^\s"'<>`]*/) { string(forURLText: String($0.output)) }
    }

    private func string(forURLText text: String) -> String {
        guard text.contains("@") || text.contains("?") else { return text }
        let afterScheme = text.range(of: "://")?.upperBound ?? text.startIndex
        let authorityEnd = text[afterScheme...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        var authority = String(text[afterScheme..<authorityEnd])
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            authority.replaceSubrange(authority.index(after: colon)..<at, with: replacement)
        }
        var rest = String(text[authorityEnd...])
        if let question = rest.firstIndex(of: "?") {
            let queryEnd = rest[question...].firstIndex(of: "#") ?? rest.endIndex
            let query = rest.index(after: question)..<queryEnd
            rest.replaceSubrange(query, with: redactingPairs(rest[query]))
        }
        return String(text[..<afterScheme]) + authority + rest
    }
}
