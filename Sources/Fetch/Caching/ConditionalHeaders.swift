/// Makes a request conditional on a stored response's validators (RFC 9111 section 4.3.1):
/// `If-None-Match` with its `ETag`, `If-Modified-Since` with its `Last-Modified`.
struct ConditionalHeaders: Enhancer {
    let entityTag: String?
    let lastModified: String?

    var name: String { "CachingPerformer" }

    init(_ stored: CachedResponse) {
        entityTag = stored.entityTag
        lastModified = stored.lastModified
    }

    func enhance(_ urlRequest: inout URLRequest, for request: any Request) {
        if let entityTag { urlRequest.setValue(entityTag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { urlRequest.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
    }
}
