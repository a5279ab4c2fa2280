import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The credentials a request carries, as the cache keeps users apart: each set of credentials
/// has a private cache of its own, and a stored response only answers requests with the same
/// credentials as the one that got it.
///
/// Credentials are the fields `Authorization`, `Cookie`, `Proxy-Authorization`,
/// ``CacheConfiguration/sensitiveHeaders`` and the request's
/// ``RequestOptions/sensitiveHeaders``: names compared without regard to case, values exactly.
/// A request without any is in the common partition, whose storage keys are the method and
/// the URL. A request with some adds a space and a digest of them to its keys: HMAC-SHA-256
/// (64 hex digits) of the fields' lowercased names and values, under a key drawn at random
/// once per process. So a key holds no credential, and a digest seen outside the process (in
/// a storage's log or file names) cannot be checked against guessed passwords; entries with
/// credentials last as long as the process.
struct CachePartition: Hashable, Sendable {
    /// The digest in hex, or `nil` for a request without credentials.
    let digest: String?

    /// The partition of requests without credentials.
    static let common = CachePartition(digest: nil)

    /// The key of every digest, drawn when the first request with credentials needs one.
    private static let authenticator: HMACSHA256 = {
        var generator = SystemRandomNumberGenerator()
        return HMACSHA256(randomKeyFrom: &generator)
    }()

    private init(digest: String?) { self.digest = digest }

    /// The partition of `request`, whose header fields as built are `fields`, in a cache
    /// configured by `configuration`.
    init(_ fields: [String: String], of request: any Request, _ configuration: CacheConfiguration) {
        guard !fields.isEmpty else {
            self = .common
            return
        }
        let own = request.options.sensitiveHeaders
        let extra =
            own.isEmpty
            ? configuration.extraCredentialNames
            : configuration.extraCredentialNames.union(own.map { $0.lowercased() })
        var credentials: [(name: String, value: String)] = []
        for (name, value) in fields
        where HTTPHeaders.credentialNames.contains(where: name.caseInsensitiveEquals)
            || (!extra.isEmpty && extra.contains(name.lowercased()))
        {
            credentials.append((name.lowercased(), value))
        }
        guard !credentials.isEmpty else {
            self = .common
            return
        }
        credentials.sort { $0.name < $1.name }
        var message: [UInt8] = []
        for (name, value) in credentials {
            Self.append(name, to: &message)
            Self.append(value, to: &message)
        }
        let hexDigits = Array("0123456789abcdef".utf8)
        let code = Self.authenticator.authenticate(message)
        digest = String(decoding: code.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }

    /// The partition of `urlRequest`, built from `request`.
    init(_ urlRequest: URLRequest, of request: any Request, _ configuration: CacheConfiguration) {
        self.init(urlRequest.allHTTPHeaderFields ?? [:], of: request, configuration)
    }

    /// The storage key of `method` on `url` in this partition.
    func key(_ method: HTTPMethod, _ url: URL) -> String {
        let key = CachingPerformer.key(method, url)
        guard let digest else { return key }
        return key + " " + digest
    }

    /// Appends `text` as its length in four bytes, then its UTF-8 bytes, so that no two
    /// lists of fields make the same message.
    private static func append(_ text: String, to message: inout [UInt8]) {
        let count = UInt32(truncatingIfNeeded: text.utf8.count)
        message += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> $0) }
        message += text.utf8
    }
}
