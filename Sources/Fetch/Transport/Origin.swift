/// A URL's scheme, host and port, without case, default ports filled in: what redirects and the origin limit compare.
struct Origin: Hashable, Sendable {
    /// Computed once, as a call's origin is looked up several times; first, so that `==` compares it first.
    private let digest: Int
    let scheme: String?
    let host: String?
    let port: Int?

    init?(_ url: URL?) {
        guard let url else { return nil }
        let scheme = url.scheme?.lowercased()
        self.scheme = scheme
        host = url.host?.lowercased()
        port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
        var hasher = Hasher()
        hasher.combine(self.scheme)
        hasher.combine(host)
        hasher.combine(port)
        digest = hasher.finalize()
    }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}
