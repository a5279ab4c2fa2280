extension Request {
    /// The `URLRequest` this request becomes: URL with encoded query items, method, headers, body
    /// with its content type, then ``adjust(_:)``. The request's own header fields are checked, not
    /// what `adjust` does (``checkedURLRequest()`` checks the whole result, as `Session` does).
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` for a header that cannot be sent as
    ///   written, ``FetchError/Code-swift.enum/encoding`` when the body fails, or what `adjust` throws.
    public func makeURLRequest() throws -> URLRequest {
        try buildURLRequest(checkingHeaders: true)
    }

    /// Builds the `URLRequest`, header fields set all at once, repeats joined; without `checkingHeaders`, for a caller
    /// that checks the finished request.
    func buildURLRequest(checkingHeaders: Bool) throws -> URLRequest {
        let method = self.method
        // `do`/`catch` rather than `FetchError.naming`, whose closures would cost on every request.
        let url: URL
        do {
            var items = queryItems
            if let query { items += try (options.coders?.parameterEncoder ?? ParameterEncoder()).queryItems(query) }
            url = items.isEmpty ? self.url : try QueryEncoder.appending(items, to: self.url)
        } catch let error as FetchError {
            throw error.naming(method: method, url: resolving(self.url))
        }
        var urlRequest = URLRequest(url: url)
        // GET is a URLRequest's method already; setting it costs a case-insensitive compare.
        if method != .get { urlRequest.httpMethod = method.rawValue }
        let headers = self.headers
        do {
            if checkingHeaders {
                for field in headers { try HeaderRules.validate(name: field.name, value: field.value) }
            }
            if !headers.isEmpty { urlRequest.allHTTPHeaderFields = headers.joinedByName() }
            if let body {
                // A streamed body is sent by the performer from disk, never read into memory here.
                if !body.isStreamed { urlRequest.httpBody = try body.encoded(with: options.coders) }
                if let contentType = body.contentType, !headers.contains("Content-Type") {
                    urlRequest.setValue(contentType, forHTTPHeaderField: "Content-Type")
                }
            }
        } catch let error as FetchError {
            throw error.naming(method: method, url: resolving(url))
        }
        try adjust(&urlRequest)
        return urlRequest
    }
}
