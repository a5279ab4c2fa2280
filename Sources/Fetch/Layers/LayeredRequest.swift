/// A request on its way down a stack, as the layers above changed it (copied, not wrapped), remembering the caller's
/// request every ``Response`` names. A class, so passing it as `any Request` allocates nothing.
final class LayeredRequest: Request {
    /// The request the caller passed to the top of the stack.
    let caller: any Request
    /// The request whose `adjust(_:)` runs first: the caller's, or one a hook sent instead.
    private let source: any Request
    let url: URL
    let method: HTTPMethod
    let headers: HTTPHeaders
    let queryItems: [URLQueryItem]
    let query: (any Encodable & Sendable)?
    let body: RequestBody?
    let options: RequestOptions
    /// Enhancers run after the source's `adjust(_:)`, in order.
    let enhancers: [any Enhancer]
    /// Where a logging layer above hears what each attempt sent; `nil` when none listens.
    let attemptLog: AttemptLog?
    /// This attempt's `URLRequest` once a layer built it (or why not), reused below so each enhancer runs once.
    let built: Result<URLRequest, any Error>?

    /// `request` as a layer passes it on, with `change` made to its options and `added` enhancers run after its own;
    /// `caller` when a hook sent `request` in its place; `log` defaults to the one `request` or `caller` carries.
    init(
        _ request: any Request, for caller: (any Request)? = nil,
        options change: (inout RequestOptions) -> Void = { _ in }, adding added: [any Enhancer] = [],
        log: AttemptLog? = nil, built: Result<URLRequest, any Error>? = nil
    ) {
        self.built = built
        let layered = request.layered
        attemptLog = log ?? layered?.attemptLog ?? caller?.layered?.attemptLog
        self.caller = caller.map(callersRequest(of:)) ?? layered?.caller ?? request
        source = layered?.source ?? request
        url = request.url
        method = request.method
        headers = request.headers
        queryItems = request.queryItems
        query = request.query
        body = request.body
        var options = request.options
        change(&options)
        self.options = options
        enhancers = (layered?.enhancers ?? []) + added
    }

    /// `built`, the `URLRequest` a layer above built for this attempt, with `added` run on it
    /// and checked again, so that the enhancers above do not run again.
    static func extending(
        _ built: Result<URLRequest, any Error>?, with added: [any Enhancer], for request: any Request
    ) -> Result<URLRequest, any Error>? {
        built.map { above in
            above.flatMap { urlRequest in
                Result {
                    var extended = urlRequest
                    try run(added, on: &extended, for: request)
                    try HeaderRules.validate(extended)
                    request.attemptLog?.sent(extended)
                    return extended
                }
            }
        }
    }

    /// Runs the source's `adjust(_:)`, then each enhancer, naming one that throws.
    func adjust(_ urlRequest: inout URLRequest) throws {
        try source.adjust(&urlRequest)
        try Self.run(enhancers, on: &urlRequest, for: self)
        attemptLog?.sent(urlRequest)
    }

    private static func run(_ enhancers: [any Enhancer], on urlRequest: inout URLRequest, for request: any Request)
        throws
    {
        for enhancer in enhancers {
            do {
                try enhancer.enhance(&urlRequest, for: request)
            } catch {
                let url = request.resolving(urlRequest.url ?? request.url)
                throw FetchError.wrapping(error, layer: enhancer.name, method: request.method, url: url)
            }
        }
    }
}

/// The request the caller passed to the top of the stack (see ``Response/request``). A function of the existential, not
/// a property, so `request` is handed back in its own box rather than boxed again for every response.
package func callersRequest(of request: any Request) -> any Request {
    request.layered?.caller ?? request
}

extension Request {
    /// This request, when it is a `LayeredRequest`. The metatype compare (exact, as the class
    /// is final) spares a dynamic cast on every response of a request that is not layered.
    var layered: LayeredRequest? { Self.self == LayeredRequest.self ? self as? LayeredRequest : nil }

    var attemptLog: AttemptLog? { layered?.attemptLog }
}

extension Response {
    /// This response as the answer to `request`, with its caller's request in ``request``:
    /// for a layer that hands one response to several calls (coalescing).
    public func answering(_ request: any Request) -> Response {
        var response = self
        response.request = callersRequest(of: request)
        return response
    }
}
