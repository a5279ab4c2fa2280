/// A request on its way down a stack of layers: the caller's request as the layers above
/// changed it, held flat.
///
/// A layer that changes a request (an enhancing layer adds enhancers, a hook sends another
/// request, a transfer sets its options) makes one of these from the request it got,
/// copying the fields once; it never wraps a wrapper, so a request passes any number of
/// layers as one value with stored fields. It remembers the caller's request, and every
/// ``Response`` is made with that one in ``Response/request``: nothing has to put it back
/// on the way up. A class, so that passing it on as `any Request` (to each layer below,
/// to each enhancer) allocates nothing; it never changes once made.
final class LayeredRequest: Request {
    /// The request the caller passed to the top of the stack.
    let caller: any Request
    /// The request whose fields were copied and whose `adjust(_:)` runs first: the
    /// caller's, or the one a hook sent in its place.
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
    /// The `URLRequest` of this attempt once a layer built it, or why it does not build
    /// (see `Request.carrying(_:)`): layers below use it rather than building it
    /// again, so each enhancer runs once per attempt. `nil` until a layer builds it.
    let built: Result<URLRequest, any Error>?

    /// `request` as a layer passes it on, with `change` made to its options and `added`
    /// enhancers run after its own.
    /// - Parameters:
    ///   - caller: the caller's request, when `request` is one a hook sent in its place;
    ///     by default `request` (or, when it is one of these already, the caller's).
    ///   - log: the attempt log of a logging layer; by default the one `request` or
    ///     `caller` carries.
    ///   - built: the `URLRequest` of this attempt, built from the request as it is passed on;
    ///     none by default: a layer that changes the request leaves it to be built below.
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

    /// `built`, the `URLRequest` a layer above built for this attempt, with the enhancers
    /// `added` below it run on it in order and the result checked again: what a layer that
    /// adds enhancers passes down, so that the ones above it do not run again.
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

    /// Runs the source's `adjust(_:)`, then each enhancer; an enhancer that throws fails
    /// with an error naming it.
    func adjust(_ urlRequest: inout URLRequest) throws {
        try source.adjust(&urlRequest)
        try Self.run(enhancers, on: &urlRequest, for: self)
        attemptLog?.sent(urlRequest)
    }

    /// Runs `enhancers` on `urlRequest` in order, for `request`; one that throws fails with
    /// an error naming it.
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

/// The request the caller passed to the top of a stack of layers: `request`, unless a layer
/// is passing it down (see ``Response/request``). A function of the existential rather than
/// a property of the request, so that `request` is handed back in its own box: a property
/// would box a copy of it again, an allocation for every response.
package func callersRequest(of request: any Request) -> any Request {
    request.layered?.caller ?? request
}

extension Request {
    /// This request, when it is a `LayeredRequest`. A metatype compare before `as?`: it runs
    /// for every response, and a request that is not layered then costs no dynamic cast.
    /// `LayeredRequest` is final, so the types match exactly.
    var layered: LayeredRequest? { Self.self == LayeredRequest.self ? self as? LayeredRequest : nil }

    /// The attempt log of the logged call this request belongs to, if any.
    var attemptLog: AttemptLog? { layered?.attemptLog }
}

extension Response {
    /// This response as the answer to `request`, a call as a layer got it: its ``request`` is
    /// the one that call's caller passed. For a layer that hands one response to several
    /// calls (coalescing), so that each caller finds its own request there.
    /// - Parameter request: the call the response answers.
    /// - Returns: the response with the caller's request.
    public func answering(_ request: any Request) -> Response {
        var response = self
        response.request = callersRequest(of: request)
        return response
    }
}
