/// A call's request built once for this attempt, for a layer that reads what will be sent
/// (a cache keys on its URL and header fields, coalescing on the same): the `URLRequest`,
/// the absolute URL it goes to, and the request to pass below, which carries that
/// `URLRequest` so that the layers below do not build it again and each enhancer runs once
/// per attempt. Made by ``RequestPerforming/prepare(_:)`` on the performer below the layer.
///
/// ```swift
/// let prepared = next.prepare(request)
/// guard let url = prepared.url else { return next.perform(prepared.request, completion: completion) }
/// ```
public struct PreparedRequest: Sendable {
    /// What to pass to the performer below. When the request does not build, it carries why,
    /// and the performer below fails the call with that error. Made when asked for: a layer
    /// that answers without sending anything (a cache hit) never asks.
    public var request: any Request { carried.map(source.carrying) ?? source }
    /// The `URLRequest` of this attempt as the layers above made it; `nil` when the request
    /// does not build. Not yet checked the way `Session` checks it, unless a layer above
    /// checked it: ``checked()`` does that before it is sent.
    public let urlRequest: URLRequest?
    /// The absolute URL the call goes to, also when a ``BaseURL`` below makes it absolute;
    /// `nil` when the request does not build, or when its URL is relative and no base URL
    /// below resolves it (such a call fails below, naming that URL).
    public let url: URL?
    /// The request as the layer got it.
    private let source: any Request
    /// The `URLRequest` (or why it does not build) that ``request`` carries; `nil` to pass
    /// `source` as it is.
    private let carried: Result<URLRequest, any Error>?
    /// Whether `urlRequest` has been checked (by a layer above, or by ``checked()``).
    private let isChecked: Bool

    private init(
        _ source: any Request, carrying carried: Result<URLRequest, any Error>?, urlRequest: URLRequest?, url: URL?,
        isChecked: Bool
    ) {
        self.source = source
        self.carried = carried
        self.urlRequest = urlRequest
        self.url = url
        self.isChecked = isChecked
    }

    /// `request` built for this attempt, as it goes to `performer`.
    init(_ request: any Request, to performer: any RequestPerforming) {
        let above = request.layered?.built
        let built = above ?? Result { try request.uncheckedURLRequest() }
        guard case .success(let urlRequest) = built else {
            self.init(request, carrying: built, urlRequest: nil, url: nil, isChecked: false)
            return
        }
        // Asked first: most URLs are absolute, and searching the stack for a base URL costs more.
        let url = urlRequest.url.flatMap { $0.hasScheme ? $0 : request.absolute($0, through: performer) }
        // Unresolved, it goes below unbuilt and fails there with the URL it has.
        self.init(
            request, carrying: url == nil ? nil : built, urlRequest: urlRequest, url: url, isChecked: above != nil)
    }

    /// This request checked as `Session` checks every request before sending it: what to send
    /// below. When the check fails, ``urlRequest`` and ``url`` are `nil` and ``request``
    /// carries the error, which the performer below reports. While the URL is relative, the
    /// layer below that makes it absolute checks the URL and header fields.
    public func checked() -> PreparedRequest {
        guard !isChecked, let urlRequest, let url else { return self }
        let checked = Result { try source.checked(urlRequest, whole: urlRequest.url?.hasScheme == true) }
        guard case .success(let sent) = checked else {
            return PreparedRequest(source, carrying: checked, urlRequest: nil, url: nil, isChecked: true)
        }
        source.attemptLog?.sent(sent)
        return PreparedRequest(source, carrying: checked, urlRequest: sent, url: url, isChecked: true)
    }

    /// This request with `enhancer` run on its `URLRequest`, now and on every later attempt
    /// built below (a retry below the layer), as a layer that adds header fields of its own
    /// (a cache's conditional request) sends it.
    /// - Throws: what `enhancer` throws, named with the enhancer, the method and the URL.
    public func adding(_ enhancer: some Enhancer) throws -> PreparedRequest {
        guard var urlRequest, let url else { return self }
        do {
            try enhancer.enhance(&urlRequest, for: request)
        } catch {
            throw FetchError.wrapping(error, layer: enhancer.name, method: request.method, url: url)
        }
        request.attemptLog?.sent(urlRequest)
        let adding = LayeredRequest(request, adding: [enhancer], built: .success(urlRequest))
        return PreparedRequest(adding, carrying: nil, urlRequest: urlRequest, url: url, isChecked: isChecked)
    }
}

extension RequestPerforming {
    /// `request` built for this attempt as it goes to this performer: for a layer that reads
    /// the request it sends through `next`, which calls `next.prepare(request)` (see
    /// ``PreparedRequest``).
    /// - Parameter request: the call, as the layer got it.
    /// - Returns: the built request, its absolute URL, and what to pass below.
    public func prepare(_ request: any Request) -> PreparedRequest {
        PreparedRequest(request, to: self)
    }
}
