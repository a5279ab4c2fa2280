/// The one error type of Fetch: what went wrong, with the request, the response and the
/// underlying error attached.
///
/// Match on ``code-swift.property``:
///
/// ```swift
/// do { user = try await api.perform(GetUser(id: 7)) }
/// catch let error as FetchError where error.code == .httpStatus && error.status == 404 { ... }
/// catch let error as FetchError where error.code == .notConnected { ... }
/// ```
///
/// ``summary`` is one line a person can read, naming the method, the URL and what went
/// wrong; `description` (what `print(error)` writes) adds, when a response came, that
/// response as a block: status, headers (sensitive ones hidden) and the start of the body.
public struct FetchError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The request cannot be sent as described: bad URL or scheme, a header name or
        /// value that is not allowed, a body on GET or HEAD, a method that is not a token.
        case invalidRequest
        /// The body could not be encoded.
        case encoding
        /// A file could not be read or written: an upload source that is missing or
        /// unreadable, a download destination that exists and may not be replaced, or a
        /// folder that cannot be written.
        case file
        /// The device has no network connection.
        case notConnected
        /// The host was found but refused or could not take the connection.
        case cannotConnect
        /// The host name did not resolve.
        case hostNotFound
        /// No bytes arrived for longer than the idle timeout.
        case timedOut
        /// The whole request took longer than its overall deadline.
        case deadlineExceeded
        /// The request was cancelled by the caller (or its `Task`).
        case cancelled
        /// A TLS handshake or certificate failure; `reason` says which: a certificate that is
        /// not trusted (with the fix), expired or not yet valid, or for another host name, a
        /// client certificate required, or no TLS on that port. The retry layer never retries it.
        case tls
        /// The connection closed before the response was complete.
        case connectionLost
        /// The server's reply was not a valid HTTP response.
        case badServerResponse
        /// More redirects than the redirect policy allows.
        case tooManyRedirects
        /// A redirect was refused: to a scheme other than http or https, or by the policy.
        case redirectRefused
        /// The response body is larger than the in-memory limit.
        case bodyTooLarge
        /// The server answered with a status the parser does not accept; `response` holds it.
        case httpStatus
        /// The body could not be decoded into the expected type.
        case decoding
        /// A layer (enhancer, hook, handler...) failed; `layer` names it.
        case layer
        /// A transport failure with no more specific code.
        case transport
        /// A caching layer was asked to answer from the cache only
        /// (`CachePolicy.onlyIfCached`) and holds no response it may use.
        case cacheMiss
        /// A session setting that this platform accepts but would ignore, such as a proxy in
        /// `connectionProxyDictionary` on Linux; `reason` names each one and what to do
        /// instead. A setting equal to its default is never refused.
        case unsupportedSetting
    }

    /// What kind of failure this is.
    public var code: Code
    /// Details for a person, without the method and URL (those are in `description`).
    public var reason: String
    /// The method of the failed request, when known.
    public var method: HTTPMethod?
    /// The absolute URL the failed request was, or would have been, sent to: an error made
    /// before the request was built names its URL resolved against the ``BaseURL`` that
    /// applies, and is relative only when none does.
    public var url: URL?
    /// The response, when one arrived (always for ``Code-swift.enum/httpStatus`` and
    /// ``Code-swift.enum/decoding``).
    public var response: Response?
    /// The error that caused this one, if any (a `URLError`, a `DecodingError`...).
    public var underlying: (any Error)?
    /// The name of the layer that failed, for ``Code-swift.enum/layer`` and errors a layer added.
    public var layer: String?

    /// Makes an error.
    public init(
        _ code: Code,
        reason: String,
        method: HTTPMethod? = nil,
        url: URL? = nil,
        response: Response? = nil,
        underlying: (any Error)? = nil,
        layer: String? = nil
    ) {
        self.code = code
        self.reason = reason
        self.method = method
        self.url = url
        self.response = response
        self.underlying = underlying
        self.layer = layer
    }

    /// The HTTP status of the response, when there was one.
    public var status: Int? { response?.status }

    /// The ``summary``, then, when a response came, the response's block
    /// (``Response/description``), indented:
    ///
    /// ```
    /// GET https://api.example.com/users/7: HTTP 404; body began: {"error":"no such user"}
    ///   HTTP 404 for GET https://api.example.com/users/7
    ///     Content-Type: application/json
    ///     body (24 bytes): {"error":"no such user"}
    /// ```
    public var description: String {
        guard let response else { return summary }
        return summary + "\n  " + response.block(bodyLimit: 200, detailed: false, indent: "    ")
    }

    /// ``description`` with the code, the layer and the underlying error named, and the
    /// response's ``Response/debugDescription``.
    public var debugDescription: String {
        var lines = [summary, "  code: \(code.rawValue)"]
        if let layer { lines.append("  layer: \(layer)") }
        if let underlying { lines.append("  underlying: \(String(reflecting: underlying))") }
        if let response { lines.append("  " + response.block(bodyLimit: 1024, detailed: true, indent: "    ")) }
        return lines.joined(separator: "\n")
    }

    /// One line: method, URL, what went wrong.
    public var summary: String {
        var line = ""
        if let method { line += "\(method) " }
        if let url { line += "\(url.absoluteString) " }
        if !line.isEmpty { line = line.trimmingCharacters(in: .whitespaces) + ": " }
        line += reason
        if let layer, code != .layer { line += " (in \(layer))" }
        // A reason may quote a body or an underlying error that spans lines.
        return line.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A copy that names the request, when it does not name one yet.
    public func naming(method: HTTPMethod?, url: URL?) -> FetchError {
        var copy = self
        if copy.method == nil { copy.method = method }
        if copy.url == nil { copy.url = url }
        return copy
    }
}

extension FetchError: LocalizedError {
    /// The one line of ``summary``, for messages shown to a person.
    public var errorDescription: String? { summary }
}

extension FetchError {
    /// Makes a ``Code-swift.enum/cancelled`` error for `request`, naming the method and the
    /// URL it was sent with: the `URLRequest` built for it when a layer passed it down
    /// built, otherwise its URL joined to a ``BaseURL`` it carries, otherwise its URL as it is.
    public static func cancelled(_ request: (any Request)? = nil) -> FetchError {
        let target = request?.target()
        return FetchError(.cancelled, reason: "cancelled", method: target?.method, url: target?.url)
    }

    /// Makes a ``Code-swift.enum/httpStatus`` error for `response`.
    public static func httpStatus(_ response: Response) -> FetchError {
        FetchError(.httpStatus, about: response, reason: "HTTP \(response.status)")
    }

    /// Makes an error about `response` that names the request it answers: `reason`, then the
    /// first bytes of the body.
    init(_ code: Code, about response: Response, reason: String, underlying: (any Error)? = nil) {
        let preview = response.bodyPreview(limit: 120)
        self.init(
            code, reason: reason + (preview.isEmpty ? "" : "; body began: \(preview)"),
            method: HTTPMethod(rawValue: response.urlRequest.httpMethod ?? "GET"),
            url: response.urlRequest.url ?? response.url, response: response, underlying: underlying)
    }

    /// What `work` returns; a ``FetchError`` it throws names `method` and `url` when it names
    /// no request yet (see ``naming(method:url:)``). `url` is made only for an error.
    static func naming<Value>(
        method: HTTPMethod?, url: @autoclosure () -> URL?, in work: () throws -> Value
    ) throws -> Value {
        do { return try work() } catch let error as FetchError { throw error.naming(method: method, url: url()) }
    }

    /// What `work` returns; an error it throws that is not a ``FetchError`` becomes a
    /// ``Code-swift.enum/encoding`` error saying that `what` could not be encoded.
    static func encoding<Value>(_ what: String, _ work: () throws -> Value) throws -> Value {
        do { return try work() } catch let error as FetchError { throw error } catch {
            throw FetchError(.encoding, reason: "could not encode \(what): \(error)", underlying: error)
        }
    }

    /// `error` in one line: a ``FetchError``'s ``summary``, anything else as it describes itself.
    static func summary(of error: any Error) -> String {
        (error as? FetchError)?.summary ?? "\(error)"
    }

    /// Wraps any error thrown by `layer` so it names the layer; a ``FetchError`` keeps its
    /// code and gains the layer name.
    public static func wrapping(_ error: any Error, layer: String, request: (any Request)? = nil) -> any Error {
        let target = request?.target()
        return wrapping(error, layer: layer, method: target?.method, url: target?.url)
    }

    /// Wraps `error` so it names `layer`, `method` and `url`; a relative URL it names gives
    /// way to `url`.
    static func wrapping(_ error: any Error, layer: String, method: HTTPMethod?, url: URL?) -> any Error {
        if var fetchError = error as? FetchError {
            if fetchError.layer == nil { fetchError.layer = layer }
            if fetchError.url?.scheme == nil, url?.scheme != nil { fetchError.url = nil }
            return fetchError.naming(method: method, url: url)
        }
        return FetchError(
            .layer, reason: "\(layer) failed: \(error)", method: method, url: url, underlying: error, layer: layer)
    }
}
