extension Request {
    /// The method and the absolute URL this request is sent with, or would have been sent
    /// with: what an error about the call names, wherever in the stack it is made.
    ///
    /// The `URLRequest` of this attempt, once a layer built it; before that, the request's
    /// method and its URL resolved against the ``BaseURL`` that applies: the first among
    /// the enhancers the request carries (those a layer above added, then its own
    /// ``RequestOptions/enhancers``), then the first of an enhancing layer in `performer`'s
    /// stack, from `performer` down. A URL that cannot be resolved (relative with no base URL
    /// in the stack, a base URL that is not usable, or a performer of your own between the
    /// layers, which hides the ones below it) is named as the request gives it.
    /// - Parameter performer: the performer the request is passed to, when the error is made
    ///   by a layer; the layers below it are searched for a base URL.
    func target(through performer: (any RequestPerforming)? = nil) -> (method: HTTPMethod, url: URL) {
        if case .success(let built)? = layered?.built, let url = built.url {
            // Built above the base URL's layer, the URL may still be relative.
            return (built.httpMethod.map(HTTPMethod.init(rawValue:)) ?? method, resolving(url, through: performer))
        }
        return (method, resolving(url, through: performer))
    }

    /// `url`, this request's URL or one made from it, joined to the first base URL that
    /// applies to this request (see ``target(through:)``), or `url` itself.
    func resolving(_ url: URL, through performer: (any RequestPerforming)? = nil) -> URL {
        absolute(url, through: performer) ?? url
    }

    /// `url` when it has a scheme, else joined to the first base URL that applies to this
    /// request (see ``target(through:)``); `nil` when none does, or when the one that applies
    /// cannot resolve it (the BaseURL layer below then fails the call with that reason).
    func absolute(_ url: URL, through performer: (any RequestPerforming)? = nil) -> URL? {
        guard !url.hasScheme else { return url }
        let options = self.options
        var enhancers = (layered?.enhancers ?? []) + options.enhancers
        var layer = performer
        while true {
            if let base = enhancers.lazy.compactMap({ $0 as? BaseURL }).first {
                return try? base.resolved(url, options: options)
            }
            guard let current = layer else { return nil }
            enhancers = (current as? LayeredPerformer)?.enhancers ?? []
            layer = (current as? any WrappingPerformer)?.base
        }
    }
}

extension FetchError {
    /// Makes a ``Code-swift.enum/cancelled`` error for `request`, passed to `performer`:
    /// it names the absolute URL the call was or would have been sent to
    /// (``Request/target(through:)``).
    static func cancelled(_ request: any Request, through performer: any RequestPerforming) -> FetchError {
        let (method, url) = request.target(through: performer)
        return FetchError(.cancelled, reason: "cancelled", method: method, url: url)
    }

    /// ``wrapping(_:layer:request:)`` for a layer that passes `request` to `performer`: the
    /// error names the absolute URL the call was or would have been sent to.
    static func wrapping(
        _ error: any Error, layer: String, request: any Request, through performer: any RequestPerforming
    ) -> any Error {
        let (method, url) = request.target(through: performer)
        return wrapping(error, layer: layer, method: method, url: url)
    }

    /// `self` naming `request`'s method and absolute URL (``Request/target(through:)``),
    /// where it names none yet; a relative URL it names is replaced by the absolute one.
    func naming(_ request: any Request, through performer: (any RequestPerforming)? = nil) -> FetchError {
        guard method == nil || url == nil || url?.scheme == nil else { return self }
        let (method, url) = request.target(through: performer)
        var copy = self
        if copy.method == nil { copy.method = method }
        if copy.url?.scheme == nil { copy.url = url }
        return copy
    }
}

extension URL {
    /// Whether the URL has a scheme, read from its text as RFC 3986 writes one (a letter, then
    /// letters, digits, `+`, `-` or `.`, then `:`): `scheme` makes a `String`, and the layers
    /// that resolve relative URLs ask on every call.
    var hasScheme: Bool {
        var text = absoluteString
        return text.withUTF8 { text in
            func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(text[0]) else { return false }
            return text[..<colon].allSatisfy { byte in
                isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "+-.".utf8.contains(byte)
            }
        }
    }
}
