/// A call's request built once for this attempt, for a layer that reads what will be sent:
/// the `URLRequest`, its absolute URL, and the request to pass below, which carries that
/// `URLRequest` so each enhancer runs once per attempt. Made by ``RequestPerforming/prepare(_:)``.
///
/// ```swift
/// let prepared = next.prepare(request)
/// guard let url = prepared.url else { return next.perform(prepared.request, completion: completion) }
/// ```
public struct PreparedRequest: Sendable {
    /// What to pass to the performer below, checked (``checked()``): nothing below checks what a layer built. When the
    /// request does not build or fails its checks, it carries why and fails the call below.
    public var request: any Request {
        isChecked || urlRequest == nil || url == nil ? passed : checked().passed
    }
    /// `source` carrying what it was built as, unchecked: what `adding` runs on, as reading `request` would check it.
    private var passed: any Request {
        guard let carried, source.layered?.built == nil else { return source }
        return LayeredRequest(source, built: carried)
    }
    /// The `URLRequest` of this attempt; `nil` when the request does not build. Not checked
    /// as `Session` checks it until ``checked()`` (or a layer above) does.
    public let urlRequest: URLRequest?
    /// The absolute URL the call goes to, also when a ``BaseURL`` below makes it absolute; `nil` when the request does
    /// not build, or its URL is relative and no base URL below resolves it (the call then fails below, naming it).
    public let url: URL?
    private let source: any Request
    /// What ``request`` carries; `nil` to pass `source` as it is.
    private let carried: Result<URLRequest, any Error>?
    private let isChecked: Bool

    /// This request checked as `Session` checks it; when that fails, ``urlRequest`` and ``url`` are `nil` and
    /// ``request`` carries the error. A relative URL and the fields are checked where the URL is made absolute.
    public func checked() -> PreparedRequest {
        guard !isChecked, let urlRequest, let url else { return self }
        let checked = Result { try source.checked(urlRequest, whole: urlRequest.url?.hasScheme == true) }
        guard case .success(let sent) = checked else {
            return PreparedRequest(urlRequest: nil, url: nil, source: source, carried: checked, isChecked: true)
        }
        source.attemptLog?.sent(sent)
        return PreparedRequest(urlRequest: sent, url: url, source: source, carried: checked, isChecked: true)
    }

    /// This request with `enhancer` run on its `URLRequest`, now and on every later attempt
    /// built below (a retry): for a layer's own header fields (a cache's conditions).
    /// - Throws: what `enhancer` throws, named with the enhancer, the method and the URL; for a checked request,
    ///   ``FetchError/Code-swift.enum/invalidRequest`` when what `enhancer` made cannot be sent (a CR or LF in a
    ///   field).
    public func adding(_ enhancer: some Enhancer) throws -> PreparedRequest {
        guard var urlRequest, let url else { return self }
        let request = passed
        do {
            try enhancer.enhance(&urlRequest, for: request)
        } catch {
            throw FetchError.wrapping(error, layer: enhancer.name, method: request.method, url: url)
        }
        // Checked again when it was checked (a relative URL, where it is made absolute).
        if isChecked, urlRequest.url?.hasScheme != false { try HeaderRules.validate(urlRequest) }
        request.attemptLog?.sent(urlRequest)
        let adding = LayeredRequest(request, adding: [enhancer], built: .success(urlRequest))
        return PreparedRequest(urlRequest: urlRequest, url: url, source: adding, carried: nil, isChecked: isChecked)
    }
}

extension PreparedRequest {
    /// `request` built for this attempt, as it goes to `performer`.
    init(_ request: any Request, to performer: any RequestPerforming) {
        let above = request.layered?.built
        let built = above ?? Result { try request.uncheckedURLRequest() }
        guard case .success(let urlRequest) = built else {
            self.init(urlRequest: nil, url: nil, source: request, carried: built, isChecked: false)
            return
        }
        // Asked first: most URLs are absolute, and searching the stack for a base URL costs more.
        let url = urlRequest.url.flatMap { $0.hasScheme ? $0 : request.absolute($0, through: performer) }
        // Unresolved, it goes below unbuilt and fails there with the URL it has.
        self.init(
            urlRequest: urlRequest, url: url, source: request, carried: url == nil ? nil : built,
            isChecked: above != nil)
    }
}

extension RequestPerforming {
    /// `request` built for this attempt as it goes to this performer, for a layer that reads what it sends.
    public func prepare(_ request: any Request) -> PreparedRequest {
        PreparedRequest(request, to: self)
    }
}
