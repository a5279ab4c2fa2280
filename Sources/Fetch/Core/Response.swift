/// What came back for one request: status, headers, body, and what was asked. Parsers
/// (``Parsable``) are pure functions over it, so a test can make one by hand.
public struct Response: Sendable {
    /// The request as the caller passed it to the top of the stack, whatever layers changed below.
    public var request: any Request
    /// The `URLRequest` that was actually sent (after every layer adjusted it).
    public var urlRequest: URLRequest
    /// The HTTP status code.
    public var status: Int
    /// The response header fields, looked up without case, repeats kept (over FoundationNetworking,
    /// repeats of one name arrive already joined with `", "`).
    public var headers: HTTPHeaders
    /// The response body; empty when there was none.
    public var body: Data
    /// The URL the response finally came from, after any redirects.
    public var url: URL?
    /// How the call went: timings, redirects, bytes, what layers did. Empty for one made by hand.
    public var metrics: ResponseMetrics
    private var added: [ObjectIdentifier: any Sendable] = [:]

    /// Makes a response to `request` (a `GET` of `url` or `http://localhost/` by default; one a layer passed down
    /// stands for the caller's), sent as `urlRequest` (else the request's method and URL), from `url` (else the
    /// request's).
    public init(
        request: (any Request)? = nil,
        urlRequest: URLRequest? = nil,
        status: Int,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        url: URL? = nil,
        metrics: ResponseMetrics = ResponseMetrics()
    ) {
        let fallbackURL = url ?? urlRequest?.url ?? URL(string: "http://localhost/")!
        let request = request ?? BasicRequest(url: fallbackURL)
        self.request = callersRequest(of: request)
        self.urlRequest = urlRequest ?? URLRequest(url: request.url)
        if urlRequest == nil { self.urlRequest.httpMethod = request.method.rawValue }
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url ?? self.urlRequest.url
        self.metrics = metrics
    }

    /// The value a feature or a layer added under `key`, or the key's default when none did:
    /// a download's ``fileURL``, a stream's ``isStreamed``, the stack's ``coders``.
    public subscript<Key: ResponseKey>(key: Key.Type) -> Key.Value {
        get {
            guard !added.isEmpty, let value = added[ObjectIdentifier(key)] else { return Key.defaultValue }
            return value as? Key.Value ?? Key.defaultValue
        }
        set { added[ObjectIdentifier(key)] = newValue }
    }

    /// Whether the status is in 200...299.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// Whether a response has no body whatever its `Content-Length`: to HEAD, a 204, a 304 (RFC 9110, section 6.4.1).
    static func hasNoBody(method: String?, status: Int) -> Bool {
        method == "HEAD" || status == 204 || status == 304
    }

    /// The media type of the `Content-Type` header, lowercased and without parameters.
    public var mediaType: String? {
        headers.first("Content-Type")?
            .split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The `charset` parameter of the `Content-Type` header, lowercased, when present.
    public var charset: String? {
        let parameters = headers.first("Content-Type")?.split(separator: ";").dropFirst() ?? []
        let pairs = parameters.map { $0.split(separator: "=", maxSplits: 1) }
        let charset = pairs.first {
            $0.count == 2 && $0[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset"
        }
        return charset?[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).lowercased()
    }

    /// At most `limit` bytes of the body as text, for errors and logs, secret form fields and JSON keys hidden.
    public func bodyPreview(limit: Int = 200, redaction: Redaction = .default) -> String {
        redaction.body(body, contentType: headers.first("Content-Type")).preview(limit: limit)
    }

    /// How much of an undelivered body (a download's or a stream's, for a refused status) an error keeps.
    static let errorBodyLimit = 64 * 1024
}

extension Data {
    func preview(limit: Int) -> String {
        let text = String(decoding: prefix(Swift.max(limit, 0)), as: UTF8.self)
        return count > limit ? text + "…" : text
    }
}

/// A value a feature or a layer adds to a ``Response``, read through a property its module
/// declares in an extension of `Response` (as ``Response/fileURL`` is for downloads).
public protocol ResponseKey {
    /// The type of the value.
    associatedtype Value: Sendable
    /// The value read when none was added.
    static var defaultValue: Value { get }
}
