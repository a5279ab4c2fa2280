import Fetch

/// Makes a request conditional on a stored response's validators (RFC 9111 section 4.3.1): `If-None-Match` with its
/// `ETag`, `If-Modified-Since` with its `Last-Modified`; or on several variants' tags in one `If-None-Match`.
struct ConditionalHeaders: Enhancer {
    let entityTag: String?
    let lastModified: String?

    var name: String { "CachingLayer" }

    init(_ stored: CachedResponse) {
        entityTag = stored.entityTag
        lastModified = stored.lastModified
    }

    /// Conditional on every variant's entity tag: the server may answer `304` naming the one it selects.
    init(variants: [CachedResponse]) {
        entityTag = variants.compactMap(\.entityTag).joined(separator: ", ")
        lastModified = nil
    }

    func enhance(_ urlRequest: inout URLRequest, for request: any Request) {
        if let entityTag { urlRequest.setValue(entityTag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { urlRequest.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
    }
}
