import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as a cache stores it: what a ``CacheStorage`` keeps, and what a storage of
/// your own (on disk, say) writes and reads back.
///
/// Its fields are read-only: what a cache needs of its header fields (the `Cache-Control`
/// directives, `Date`, `Expires`, `Age`) is read once, when it is made, so that a cache hit
/// parses nothing.
public struct CachedResponse: Sendable {
    /// The status.
    public let status: Int
    /// The header fields as stored: hop-by-hop fields removed, updated by each `304`.
    public let headers: HTTPHeaders
    /// The body.
    public let body: Data
    /// The URL the response came from.
    public let url: URL?
    /// The request that was sent for it (its last validation's, after a `304`).
    public let sentRequest: URLRequest
    /// The request header fields the response varies on (its `Vary` field), with the values
    /// the request that got it carried (`nil` for a field it did not carry).
    public let varying: [String: String?]
    /// When the request that got it was sent, on the cache's clock.
    public let requestTime: Date
    /// When it arrived, on the cache's clock.
    public let responseTime: Date

    /// Makes a stored response.
    public init(
        status: Int, headers: HTTPHeaders, body: Data, url: URL?, sentRequest: URLRequest,
        varying: [String: String?], requestTime: Date, responseTime: Date
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.sentRequest = sentRequest
        self.varying = varying
        self.requestTime = requestTime
        self.responseTime = responseTime
        directives = CacheDirectives(headers)
        serverDate = headers.first("Date").flatMap(HTTPDate.parse)
        let expiresFields = headers.values(for: "Expires")
        // Two Expires fields that disagree, or one that is not a date: already expired.
        expires =
            expiresFields.isEmpty
            ? .absent
            : Set(expiresFields).count == 1 ? HTTPDate.parse(expiresFields[0]).map { .date($0) } ?? .invalid : .invalid
        if let age = headers.first("Age") {
            if case .value(let seconds) = CacheDirectives.seconds(Substring(age).trimmingSpaces) {
                ageValue = Double(seconds)
            } else {
                ageValue = nil
            }
        } else {
            ageValue = 0
        }
    }

    /// Its `Cache-Control` directives.
    let directives: CacheDirectives
    /// Its `Date`, when that is a date.
    let serverDate: Date?
    /// Its `Expires`.
    let expires: Expires
    /// Its `Age` in seconds: 0 when absent, `nil` when malformed.
    let ageValue: Double?

    /// What an `Expires` field says.
    enum Expires {
        case absent
        case date(Date)
        /// Not a date (`0`), or several that disagree: already expired.
        case invalid
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
