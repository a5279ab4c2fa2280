import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as a cache stores it: what a ``CacheStorage`` keeps, and what a storage of
/// your own (on disk, say) writes and reads back.
public struct CachedResponse: Sendable {
    /// The status.
    public var status: Int
    /// The header fields as stored: hop-by-hop fields removed, updated by each `304`.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Data
    /// The URL the response came from.
    public var url: URL?
    /// The request that was sent for it (its last validation's, after a `304`).
    public var sentRequest: URLRequest
    /// The request header fields the response varies on (its `Vary` field), with the values
    /// the request that got it carried (`nil` for a field it did not carry).
    public var varying: [String: String?]
    /// When the request that got it was sent, on the cache's clock.
    public var requestTime: Date
    /// When it arrived, on the cache's clock.
    public var responseTime: Date

    /// Makes a stored response.
    public init(status: Int, headers: HTTPHeaders, body: Data, url: URL?, sentRequest: URLRequest,
                varying: [String: String?], requestTime: Date, responseTime: Date) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.sentRequest = sentRequest
        self.varying = varying
        self.requestTime = requestTime
        self.responseTime = responseTime
    }

    /// Roughly how many bytes it holds: its body, its header fields, its URL, and a fixed
    /// allowance for the rest. A ``MemoryCacheStorage`` counts entries by this.
    public var cost: Int {
        var total = 256 + body.count + (url?.absoluteString.utf8.count ?? 0)
        for field in headers { total += field.name.utf8.count + field.value.utf8.count + 4 }
        for (name, value) in varying { total += name.utf8.count + (value?.utf8.count ?? 0) }
        return total
    }

    /// The `ETag` to revalidate with, if any.
    var entityTag: String? { headers.first("ETag") }
    /// The `Last-Modified` to revalidate with, if any.
    var lastModified: String? { headers.first("Last-Modified") }
    /// Whether a conditional request can revalidate it.
    var hasValidator: Bool { entityTag != nil || lastModified != nil }
}
