/// Another request with some options set on top, made by ``Request/with(_:_:)``; typed when its base is.
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
    public func adjust(_ urlRequest: inout URLRequest) throws { try base.adjust(&urlRequest) }
}

extension ModifiedRequest: TypedRequest where Base: TypedRequest {
    /// The base's model.
    public typealias Output = Base.Output
    /// The base's error parser.
    public var errorParser: (any ErrorParsing.Type)? { base.errorParser }
}

extension Request {
    /// This request with the option at `keyPath` set to `value`, for a per-call marker; works on `any Request` too.
    public func with<Value>(_ keyPath: WritableKeyPath<RequestOptions, Value>, _ value: Value) -> some Request {
        ModifiedRequest(base: self, options: options.with(keyPath, value))
    }
}

extension TypedRequest {
    /// This typed request with the option at `keyPath` set to `value`; it stays typed.
    public func with<Value>(_ keyPath: WritableKeyPath<RequestOptions, Value>, _ value: Value) -> ModifiedRequest<Self>
    {
        ModifiedRequest(base: self, options: options.with(keyPath, value))
    }
}
