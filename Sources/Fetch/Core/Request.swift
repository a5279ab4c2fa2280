/// One HTTP call, described as a value: conform a small struct per endpoint. Only `url` is required (relative when a
/// base-URL enhancer sits above the performer); the rest defaults to `GET`, no headers, query items, body or options.
public protocol Request: Sendable {
    /// Where the request goes. Query items are appended to any query it already has.
    var url: URL { get }
    /// The method; `GET` by default.
    var method: HTTPMethod { get }
    /// Header fields sent with the request; none by default.
    var headers: HTTPHeaders { get }
    /// Query items appended to `url`, encoded by ``QueryEncoder`` (which encodes `+`); none by default.
    var queryItems: [URLQueryItem] { get }
    /// An `Encodable` value added to the query after ``queryItems`` by the rules of
    /// ``ParameterEncoder``, with the request's or the stack's encoder (see ``Coders``); `nil` by
    /// default. A failure to encode fails the call with ``FetchError/Code-swift.enum/encoding``.
    var query: (any Encodable & Sendable)? { get }
    /// The body, if any, encoded when the request is built (see ``RequestBody``).
    var body: RequestBody? { get }
    /// Per-request settings read by the performer and its layers; empty by default.
    var options: RequestOptions { get }
    /// A last chance to change the `URLRequest` this request becomes; does nothing by default.
    /// - Throws: any error, which fails the call before anything is sent.
    func adjust(_ urlRequest: inout URLRequest) throws
}

extension Request {
    /// `GET`.
    public var method: HTTPMethod { .get }
    /// No headers.
    public var headers: HTTPHeaders { HTTPHeaders() }
    /// No query items.
    public var queryItems: [URLQueryItem] { [] }
    /// No query value.
    public var query: (any Encodable & Sendable)? { nil }
    /// No body.
    public var body: RequestBody? { nil }
    /// No options.
    public var options: RequestOptions { RequestOptions() }
    /// Leaves the `URLRequest` as it is.
    public func adjust(_ urlRequest: inout URLRequest) throws {}
}
