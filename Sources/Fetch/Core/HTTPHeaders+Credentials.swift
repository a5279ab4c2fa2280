extension HTTPHeaders {
    /// The fields that carry credentials whatever a configuration says: a redirect to another origin drops them, a
    /// cache keeps responses to different values apart, logs hide them; configurations add more (`sensitiveHeaders`).
    static let credentialNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]
}
