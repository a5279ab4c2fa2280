/// A call as a ``CachingPerformer`` keys it: the `URLRequest` of this attempt, built once,
/// and the absolute URL it is sent to, which the storage keys name.
///
/// A relative URL counts as the ``BaseURL`` that applies makes it, also one in an enhancing
/// layer below the cache (`Request.resolving(_:through:)`); such a request goes below
/// carrying its `URLRequest` unchecked, and that layer makes it absolute, then checks it.
struct CacheTarget {
    /// The request as the cache got it.
    let request: any Request
    /// The `URLRequest` of this attempt: the one a layer above built and checked, or built
    /// here and not checked yet (a hit sends nothing).
    let urlRequest: URLRequest
    /// The absolute URL `urlRequest` is sent to.
    let url: URL
    /// Whether a layer above built `urlRequest`.
    private let builtAbove: Bool

    /// The target of `request`, passed to a cache over `base`; `nil` with the request to pass
    /// below as it is when there is none: carrying why it does not build, or unbuilt when its
    /// URL is relative and no base URL resolves it (it fails below, naming that URL).
    static func of(
        _ request: any Request, over base: any RequestPerforming
    ) -> (target: CacheTarget?, passed: any Request) {
        let above = request.layered?.built
        let urlRequest: URLRequest
        do {
            urlRequest = try above?.get() ?? request.uncheckedURLRequest()
        } catch {
            // Not the cache's to report: it fails below with the reason it carries.
            return (nil, request.carrying(.failure(error)))
        }
        guard let url = urlRequest.url.flatMap({ request.absolute($0, through: base) }) else { return (nil, request) }
        return (CacheTarget(request: request, urlRequest: urlRequest, url: url, builtAbove: above != nil), request)
    }

    /// The request to send below, carrying what it sends, and that `URLRequest` checked once:
    /// here, or, while its URL is relative, by the layer below that makes it absolute.
    func outgoing() -> (request: any Request, urlRequest: Result<URLRequest, any Error>) {
        if builtAbove { return (request, .success(urlRequest)) }
        let checked = Result { try request.checked(urlRequest, whole: urlRequest.url?.scheme != nil) }
        return (request.carrying(checked), checked)
    }
}
