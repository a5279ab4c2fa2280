extension HTTPHeaders {
    /// The fields that carry credentials whatever a configuration says, lowercased: `Authorization`, `Cookie` and
    /// `Proxy-Authorization`. A redirect to another origin drops them, a cache keeps the responses to different values
    /// of them apart, and logs hide them (with `Set-Cookie`); configurations name more (`sensitiveHeaders`).
    static let credentialNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]
}
