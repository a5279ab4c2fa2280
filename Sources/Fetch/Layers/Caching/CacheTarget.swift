/// A call as a ``CachingPerformer`` keys it: the `URLRequest` of this attempt, built once,
/// and the absolute URL it is sent to, which the storage keys name.
///
/// A relative URL counts as the ``BaseURL`` that applies makes it, also one in an enhancing
/// layer below the cache (`Request.resolving(_:through:)`); such a request goes below
/// carrying its `URLRequest` unchecked, and that layer makes it absolute, then checks it.
/// (Functions of the call's parts rather than a value holding them: a hit would copy it.)
enum CacheTarget {
    /// The request to pass below as it is, when a call has no target: carrying why it does
    /// not build, or unbuilt when its URL is relative and no base URL resolves it (it fails
    /// below, naming that URL).
    struct Passed: Error {
        let request: any Request
    }

    /// The target of `request`, passed to a cache over `base`: the `URLRequest` of this
    /// attempt (the one a layer above built and checked, or built here and not checked yet:
    /// a hit sends nothing), the absolute URL it is sent to, and whether a layer above built it.
    /// - Throws: the request to pass below as it is, when there is none.
    static func of(_ request: any Request, over base: any RequestPerforming) throws(Passed) -> (
        urlRequest: URLRequest, url: URL, builtAbove: Bool
    ) {
        let above = request.layered?.built
        let built = above ?? Result { try request.uncheckedURLRequest() }
        // Not the cache's to report: it fails below with the reason it carries.
        guard case .success(let urlRequest) = built else { throw Passed(request: request.carrying(built)) }
        guard let url = urlRequest.url else { throw Passed(request: request) }
        // Asked here first: most URLs are absolute, and passing `base` to be searched costs more.
        if url.hasScheme { return (urlRequest, url, above != nil) }
        guard let resolved = request.absolute(url, through: base) else { throw Passed(request: request) }
        return (urlRequest, resolved, above != nil)
    }

    /// `request` to send below, carrying `urlRequest`, its target's, and that `URLRequest`
    /// checked once: here, or, while its URL is relative, by the layer below that makes it
    /// absolute.
    static func outgoing(_ request: any Request, _ urlRequest: URLRequest, builtAbove: Bool) -> (
        request: any Request, urlRequest: Result<URLRequest, any Error>
    ) {
        if builtAbove { return (request, .success(urlRequest)) }
        let checked = Result { try request.checked(urlRequest, whole: urlRequest.url?.hasScheme == true) }
        return (request.carrying(checked), checked)
    }
}
