extension Request {
    /// The method and absolute URL errors name: the URL resolved against the first ``BaseURL`` the request carries,
    /// else the first from `performer` down (not below a performer of your own), else as the request gives it.
    func target(through performer: (any RequestPerforming)? = nil) -> (method: HTTPMethod, url: URL) {
        if case .success(let built)? = layered?.built, let url = built.url {
            // Built above the base URL's layer, the URL may still be relative.
            return (built.httpMethod.map(HTTPMethod.init(rawValue:)) ?? method, resolving(url, through: performer))
        }
        return (method, resolving(url, through: performer))
    }

    /// `url` joined to the base URL that applies (see ``target(through:)``), else `url`.
    func resolving(_ url: URL, through performer: (any RequestPerforming)? = nil) -> URL {
        absolute(url, through: performer) ?? url
    }

    /// `url` when it has a scheme, else joined to the base URL that applies; `nil` when none does or it cannot resolve
    /// `url` (the ``BaseURL`` below then fails the call).
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
    static func cancelled(_ request: any Request, through performer: any RequestPerforming) -> FetchError {
        cancelled().naming(request, through: performer)
    }

    static func wrapping(
        _ error: any Error, layer: String, request: any Request, through performer: any RequestPerforming
    ) -> any Error {
        let (method, url) = request.target(through: performer)
        return wrapping(error, layer: layer, method: method, url: url)
    }

    /// `self` naming ``Request/target(through:)`` where it names no method or URL yet, or only a relative URL.
    func naming(_ request: any Request, through performer: (any RequestPerforming)? = nil) -> FetchError {
        guard method == nil || url?.scheme == nil else { return self }
        let (method, url) = request.target(through: performer)
        var copy = self
        if copy.url?.scheme == nil { copy.url = nil }
        return copy.naming(method: method, url: url)
    }
}

extension URL {
    /// Whether the text starts with an RFC 3986 scheme and `:`; `scheme` would make a `String` on every call.
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
