/// The one error type of Fetch: what went wrong (``code-swift.property``), with request, response and cause attached.
public struct FetchError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The request cannot be sent as described: bad URL, header or method, a body on GET or HEAD.
        case invalidRequest
        /// The body could not be encoded.
        case encoding
        /// A file could not be read or written (an upload source, a download destination or its folder).
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
        /// A TLS handshake or certificate failure, which `reason` names (with a fix); never retried.
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
        /// `CachePolicy.onlyIfCached` found no cached response it may use.
        case cacheMiss
        /// A session setting this platform would ignore (a Linux proxy in `connectionProxyDictionary`);
        /// `reason` names each and what to do instead. A default value is never refused.
        case unsupportedSetting
    }

    /// What kind of failure this is.
    public var code: Code
    /// Details for a person, without the method and URL (those are in `description`).
    public var reason: String
    /// The method of the failed request, when known.
    public var method: HTTPMethod?
    /// The absolute URL the request was, or would have been, sent to; relative if no ``BaseURL`` applies.
    public var url: URL?
    /// The response, when one arrived (always for ``Code-swift.enum/httpStatus`` and ``Code-swift.enum/decoding``).
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

    /// The ``summary``, then the response's ``Response/description`` indented, when one came.
    public var description: String {
        guard let response else { return summary }
        return summary + "\n  " + response.block(bodyLimit: 200, detailed: false, indent: "    ")
    }

    /// ``description`` with the code, the layer, the underlying error and ``Response/debugDescription``.
    public var debugDescription: String {
        var lines = [summary, "  code: \(code.rawValue)"]
        if let layer { lines.append("  layer: \(layer)") }
        if let underlying { lines.append("  underlying: \(String(reflecting: underlying))") }
        if let response { lines.append("  " + response.block(bodyLimit: 1024, detailed: true, indent: "    ")) }
        return lines.joined(separator: "\n")
    }

    /// One line: method, URL, what went wrong.
    public var summary: String {
        let target = [method.map { "\($0)" }, url?.absoluteString].compactMap { $0 }.joined(separator: " ")
        var line = target.trimmingCharacters(in: .whitespaces)
        line += (line.isEmpty ? "" : ": ") + reason
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
    /// Makes a ``Code-swift.enum/cancelled`` error naming `request`'s method and URL: as a layer
    /// built it, else joined to a ``BaseURL`` it carries, else as it is.
    public static func cancelled(_ request: (any Request)? = nil) -> FetchError {
        let target = request?.target()
        return FetchError(.cancelled, reason: "cancelled", method: target?.method, url: target?.url)
    }

    /// Makes a ``Code-swift.enum/httpStatus`` error for `response`.
    public static func httpStatus(_ response: Response) -> FetchError {
        FetchError(.httpStatus, about: response, reason: "HTTP \(response.status)")
    }

    /// An error about `response`, naming its request: `reason`, then the body's first bytes.
    init(_ code: Code, about response: Response, reason: String, underlying: (any Error)? = nil) {
        let preview = response.bodyPreview(limit: 120)
        self.init(
            code, reason: reason + (preview.isEmpty ? "" : "; body began: \(preview)"),
            method: HTTPMethod(rawValue: response.urlRequest.httpMethod ?? "GET"),
            url: response.urlRequest.url ?? response.url, response: response, underlying: underlying)
    }

    /// What `work` returns; a ``FetchError`` it throws is named (``naming(method:url:)``), and `url` is made only then.
    static func naming<Value>(
        method: HTTPMethod?, url: @autoclosure () -> URL?, in work: () throws -> Value
    ) throws -> Value {
        do { return try work() } catch let error as FetchError { throw error.naming(method: method, url: url()) }
    }

    /// What `work` returns; a ``FetchError`` it throws is kept, any other becomes a `code` error: could not `what`.
    static func attempt<Value>(_ what: String, as code: Code = .file, _ work: () throws -> Value) throws -> Value {
        do { return try work() } catch let error as FetchError { throw error } catch {
            throw FetchError(code, reason: "could not \(what): \(error)", underlying: error)
        }
    }

    static func summary(of error: any Error) -> String {
        (error as? FetchError)?.summary ?? "\(error)"
    }

    /// Wraps an error thrown by `layer` so it names the layer; a ``FetchError`` keeps its code.
    public static func wrapping(_ error: any Error, layer: String, request: (any Request)? = nil) -> any Error {
        let target = request?.target()
        return wrapping(error, layer: layer, method: target?.method, url: target?.url)
    }

    /// Wraps `error` so it names `layer`, `method` and `url`; a relative URL gives way to `url`.
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
