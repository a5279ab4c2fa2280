/// A request with some options set on top of another request's; made by
/// ``Request/with(_:_:)``. It is the base request in everything else, and a
/// ``TypedRequest`` when the base is one, so typed calls stay typed.
public struct ModifiedRequest<Base: Request>: Request {
    /// The request modified.
    public let base: Base
    /// The base's options with the changes.
    public let options: RequestOptions

    /// The base's URL.
    public var url: URL { base.url }
    /// The base's method.
    public var method: HTTPMethod { base.method }
    /// The base's headers.
    public var headers: HTTPHeaders { base.headers }
    /// The base's query items.
    public var queryItems: [URLQueryItem] { base.queryItems }
    /// The base's query value.
    public var query: (any Encodable & Sendable)? { base.query }
    /// The base's body.
    public var body: RequestBody? { base.body }

    /// Runs the base's `adjust(_:)`.
    /// - Throws: what the base throws.
    public func adjust(_ urlRequest: inout URLRequest) throws { try base.adjust(&urlRequest) }
}

extension ModifiedRequest: TypedRequest where Base: TypedRequest {
    /// The base's model.
    public typealias Output = Base.Output
    /// The base's error parser.
    public var errorParser: (any ErrorParsing.Type)? { base.errorParser }
}

extension Request {
    /// This request with one option changed, for a per-call marker that layers read:
    ///
    /// ```swift
    /// try await api.perform(Login(user: name).with(\.skipsAuthentication, true), as: Token.self)
    /// PreRequestHook { request in request.with(\.deadline, .seconds(5)) }
    /// ```
    ///
    /// Works on `any Request` too, as in a hook.
    /// - Parameters:
    ///   - keyPath: a named option of ``RequestOptions``.
    ///   - value: its value for this call.
    /// - Returns: a request that is this one in everything but that option.
    public func with<Value>(_ keyPath: WritableKeyPath<RequestOptions, Value>, _ value: Value) -> some Request {
        ModifiedRequest(base: self, options: options.with(keyPath, value))
    }
}

extension TypedRequest {
    /// This typed request with one option changed; it stays typed:
    ///
    /// ```swift
    /// let user = try await api.perform(GetUser(id: 7).with(\.logOptions, .all))
    /// ```
    /// - Parameters:
    ///   - keyPath: a named option of ``RequestOptions``.
    ///   - value: its value for this call.
    /// - Returns: a request that is this one in everything but that option.
    public func with<Value>(_ keyPath: WritableKeyPath<RequestOptions, Value>, _ value: Value) -> ModifiedRequest<Self>
    {
        ModifiedRequest(base: self, options: options.with(keyPath, value))
    }
}
