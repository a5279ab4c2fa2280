/// Puts a base URL in front of every relative request URL.
///
/// Exactly one `/` joins the paths (`/v1` and `/users/7` give `/v1/users/7`, unlike RFC 3986 resolution, which would
/// drop `v1`); the request's query and fragment are kept, and a URL that has a scheme is left as it is. A request can
/// name another base with ``RequestOptions/baseURL`` or keep its URL with ``RequestOptions/skipsBaseURL``.
public struct BaseURL: Enhancer, RequestOnlyEnhancer {
    private let prefix: Result<String, FetchError>

    /// Makes the enhancer from a URL with a scheme and a host, and no query or fragment.
    public init(_ url: URL) { prefix = Self.prefix(of: url) }

    /// Makes the enhancer from a string; a string that is not such a URL fails every call
    /// with ``FetchError/Code-swift.enum/invalidRequest``.
    public init(_ string: String) {
        prefix =
            URL(string: string).map(Self.prefix(of:))
            ?? .failure(FetchError(.invalidRequest, reason: "the base URL \(string.debugDescription) is not a URL"))
    }

    /// ``EnhancerPriority/high``, so other enhancers see the full URL.
    public var priority: EnhancerPriority { .high }

    /// Prefixes a relative URL with the base URL.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` when the base URL is not
    ///   usable or the joined URL is not valid.
    public func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        guard let relative = urlRequest.url, let url = try resolved(relative, options: request.options) else { return }
        urlRequest.url = url
    }

    /// `relative` joined to the base that applies; `nil` when it has a scheme or the request sets
    /// ``RequestOptions/skipsBaseURL``.
    func resolved(_ relative: URL, options: RequestOptions) throws -> URL? {
        guard relative.scheme == nil, !options.skipsBaseURL else { return nil }
        let base = try options.baseURL.map { try Self.prefix(of: $0).get() } ?? prefix.get()
        let path = relative.relativeString
        let separator = path.isEmpty || path.hasPrefix("?") || path.hasPrefix("#") ? "" : "/"
        let joined = base + separator + path.drop { $0 == "/" }
        guard let url = URL(string: joined) else {
            throw FetchError(.invalidRequest, reason: "\(joined.debugDescription) is not a valid URL")
        }
        return url
    }

    private static func prefix(of url: URL) -> Result<String, FetchError> {
        func refused(_ fault: String) -> Result<String, FetchError> {
            .failure(FetchError(.invalidRequest, reason: "the base URL \(url.absoluteString) \(fault)"))
        }
        guard url.scheme != nil, let host = url.host, !host.isEmpty else { return refused("has no scheme or host") }
        guard url.query == nil, url.fragment == nil else { return refused("cannot have a query or a fragment") }
        var string = url.absoluteString
        while string.hasSuffix("/") { string.removeLast() }
        return .success(string)
    }
}

extension RequestOptions {
    private enum BaseURLKey: RequestOptionKey { static let defaultValue: URL? = nil }
    private enum SkipsBaseURLKey: RequestOptionKey { static let defaultValue = false }

    /// A base URL for this request in place of the ``BaseURL`` enhancer's; `nil` keeps it.
    public var baseURL: URL? {
        get { self[BaseURLKey.self] }
        set { self[BaseURLKey.self] = newValue }
    }

    /// Whether the ``BaseURL`` enhancer leaves this request's URL as it is; `false` by default.
    public var skipsBaseURL: Bool {
        get { self[SkipsBaseURLKey.self] }
        set { self[SkipsBaseURLKey.self] = newValue }
    }
}
