import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// The `URLRequest` this request becomes, checked the way `Session` checks every
    /// request before sending it, so that a performer of your own (or the spy in
    /// FetchTesting) refuses exactly what `Session` refuses.
    ///
    /// Checks: the request builds (its body encodes, `adjust` does not throw); the URL is
    /// http or https with a host; method and header names are tokens and no value holds a
    /// control character; no caller-set `Content-Length`, `Host`, `Transfer-Encoding` or
    /// `Connection`; no body on GET or HEAD; every file a streamed body names is readable;
    /// an upload (``CallKind/upload(_:)``) has a body.
    /// A download whose destination has a partial download to resume gets `Range` and
    /// `If-Range` for the rest (see ``PartialDownload``).
    /// Every header field is checked once, on the finished request.
    /// - Returns: the `URLRequest`, as ``makeURLRequest()`` builds it.
    /// - Throws: a ``FetchError`` naming the method and URL: ``FetchError/Code-swift.enum/encoding``
    ///   for a body that fails to encode, ``FetchError/Code-swift.enum/file`` for a missing
    ///   or unreadable file, ``FetchError/Code-swift.enum/invalidRequest`` otherwise.
    public func checkedURLRequest() throws -> URLRequest {
        let method = self.method
        let url = self.url
        var destination: DownloadDestination?
        switch options.kind {
        case .plain, .stream: break
        case .download(let transfer): destination = transfer.destination
        case .upload:
            if body == nil {
                throw FetchError(.invalidRequest, reason: "an upload needs a body", method: method, url: url)
            }
        }
        var urlRequest: URLRequest
        do {
            urlRequest = try buildURLRequest(checkingHeaders: false)
        } catch let error as FetchError {
            throw error.naming(method: method, url: url)
        } catch {
            throw FetchError(
                .invalidRequest, reason: "the request could not be built: \(error)", method: method, url: url,
                underlying: error
            )
        }
        try HeaderRules.validate(urlRequest)
        if let body, body.isStreamed {
            // A streamed body is not in `httpBody`, so `validate` cannot see it.
            if method == .get || method == .head {
                throw FetchError(
                    .invalidRequest, reason: "a \(method.rawValue) request cannot have a body", method: method, url: url
                )
            }
            do { try body.checkFiles() } catch let error as FetchError {
                throw error.naming(method: method, url: url)
            }
        }
        if let destination { urlRequest.askForRest(of: destination) }
        return urlRequest
    }
}
