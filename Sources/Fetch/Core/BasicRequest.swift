/// A ``Request`` made from values, for one-off calls and tests.
public struct BasicRequest: Request {
    /// Where the request goes.
    public var url: URL
    /// The method.
    public var method: HTTPMethod
    /// The header fields.
    public var headers: HTTPHeaders
    /// Query items appended to `url`.
    public var queryItems: [URLQueryItem]
    /// An `Encodable` value added to the query after `queryItems` (see ``Request/query``).
    public var query: (any Encodable & Sendable)?
    /// The body, if any.
    public var body: RequestBody?
    /// Per-request options.
    public var options: RequestOptions

    /// Makes a request from its parts; only the URL is required.
    public init(
        url: URL,
        method: HTTPMethod = .get,
        headers: HTTPHeaders = [:],
        queryItems: [URLQueryItem] = [],
        query: (any Encodable & Sendable)? = nil,
        body: RequestBody? = nil,
        options: RequestOptions = RequestOptions()
    ) {
        self.url = url
        self.method = method
        self.headers = headers
        self.queryItems = queryItems
        self.query = query
        self.body = body
        self.options = options
    }
}
