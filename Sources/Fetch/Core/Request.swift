/// One HTTP call, described as a value.
///
/// Conform a small struct per endpoint; only `url` is required:
///
/// ```swift
/// struct GetUser: Request {
///     let id: Int
///     var url: URL { URL(string: "https://api.example.com/users/\(id)")! }
/// }
/// ```
///
/// The URL may be relative when a base-URL enhancer sits above the performer. Everything
/// else has a default: `GET`, no headers, no query items, no body, no options.
public protocol Request: Sendable {
    /// Where the request goes. Query items are appended to any query it already has.
    var url: URL { get }
    /// The method; `GET` by default.
    var method: HTTPMethod { get }
    /// Header fields sent with the request; none by default.
    var headers: HTTPHeaders { get }
    /// Query items appended to `url`, encoded by ``QueryEncoder`` (which, unlike
    /// `URLComponents`, encodes `+`); none by default.
    var queryItems: [URLQueryItem] { get }
    /// An `Encodable` value whose properties are added to the query after ``queryItems``,
    /// by the rules of ``ParameterEncoder`` (nested values, arrays, booleans, dates,
    /// `nil` omitted), with the request's or the stack's encoder (see ``Coders``); `nil`
    /// by default. A value that fails to encode fails the call with
    /// ``FetchError/Code-swift.enum/encoding``, and nothing is sent.
    var query: (any Encodable & Sendable)? { get }
    /// The body, if any. It is encoded when the request is built, and an encoding
    /// failure fails the call with ``FetchError/Code-swift.enum/encoding``; it never
    /// becomes an empty body.
    var body: RequestBody? { get }
    /// Per-request settings read by the performer and its layers (deadline, markers
    /// for enhancers, ...); empty by default.
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
