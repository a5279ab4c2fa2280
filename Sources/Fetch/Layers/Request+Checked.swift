extension Request {
    /// The `URLRequest` this request becomes, checked as `Session` checks every request, so
    /// that a performer of your own (or the spy in FetchTesting) refuses what `Session` does.
    ///
    /// Checks: the request builds (its body encodes, `adjust` does not throw); the URL is http or https with a host;
    /// method and header names are tokens and no value holds a control character; no caller-set `Content-Length`,
    /// `Host`, `Transfer-Encoding` or `Connection`; no body on GET or HEAD; every file a streamed body names is
    /// readable; an upload (``CallKind/upload(_:)``) has a body. A download with a partial download to resume gets
    /// `Range` and `If-Range` for the rest (see ``PartialDownload``).
    /// - Returns: the `URLRequest`, as ``makeURLRequest()`` builds it.
    /// - Throws: a ``FetchError`` naming the method and URL: ``FetchError/Code-swift.enum/encoding``
    ///   for a body that fails to encode, ``FetchError/Code-swift.enum/file`` for a missing
    ///   or unreadable file, ``FetchError/Code-swift.enum/invalidRequest`` otherwise.
    public func checkedURLRequest() throws -> URLRequest {
        try checked(uncheckedURLRequest())
    }

    /// The `URLRequest` as ``checkedURLRequest()`` builds it, unchecked: for a layer that may answer it (a cache hit).
    func uncheckedURLRequest() throws -> URLRequest {
        do {
            return try buildURLRequest(checkingHeaders: false)
        } catch let error as FetchError {
            throw error.naming(method: method, url: resolving(url))
        } catch {
            throw FetchError(
                .invalidRequest, reason: "the request could not be built: \(error)", method: method,
                url: resolving(url), underlying: error)
        }
    }

    /// `built` checked as `Session` checks it; with `whole` `false` (a relative URL), the URL and
    /// header fields are left to the layer below that makes the URL absolute.
    func checked(_ built: URLRequest, whole: Bool = true) throws -> URLRequest {
        var urlRequest = built
        let body = self.body
        // Resolved only for an error: resolving costs more than the checks.
        var url: URL { built.url ?? resolving(self.url) }
        switch options.kind {
        case .upload where body == nil:
            throw FetchError(.invalidRequest, reason: "an upload needs a body", method: method, url: url)
        case .download(let transfer):
            if let destination = transfer.destination { urlRequest.askForRest(of: destination) }
        case .plain, .stream, .upload: break
        }
        if whole { try HeaderRules.validate(urlRequest) }
        if let body, body.isStreamed {
            let method = self.method
            // A streamed body is not in `httpBody`, so `validate` cannot see it.
            if method == .get || method == .head {
                throw FetchError(
                    .invalidRequest, reason: "a \(method.rawValue) request cannot have a body", method: method,
                    url: url)
            }
            try FetchError.naming(method: method, url: url) { try body.checkFiles() }
        }
        return urlRequest
    }
}

extension Request {
    /// The checked `URLRequest` of this attempt: the one a layer above built, or built now.
    /// - Throws: what ``checkedURLRequest()`` throws.
    package func attemptURLRequest() throws -> URLRequest {
        if let built = layered?.built { return try built.get() }
        return try checkedURLRequest()
    }

    /// This request for the next attempt, without the last one's `URLRequest`, so that every enhancer runs again.
    var forNextAttempt: any Request {
        guard let layered, layered.built != nil else { return self }
        return LayeredRequest(layered)
    }
}
