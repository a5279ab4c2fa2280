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

    /// The last credentials digested, as the message given to the HMAC, and their digest: a
    /// process that calls with the same credentials again and again (a token set by
    /// `BearerToken` on every call) computes the HMAC once. Only one entry: credentials
    /// that change (another user, a refreshed token) replace it.
    private static let lastDigest = Locked<(message: [UInt8], digest: String)?>(nil)

    private init(digest: String?) { self.digest = digest }

    /// The partition of `request`, whose header fields as built are `fields`, in a cache
    /// configured by `configuration`. (Functions rather than initializers: their arguments are
    /// borrowed, where an initializer's are copied.)
    static func of(_ fields: [String: String], _ request: any Request, _ configuration: CacheConfiguration)
        -> CachePartition
    {
        guard !fields.isEmpty else { return .common }
        let own = request.options.sensitiveHeaders
        let extra =
            own.isEmpty
            ? configuration.extraCredentialNames
            : configuration.extraCredentialNames.union(own.map { $0.lowercased() })
        var credentials: [(name: String, value: String)] = []
        for (name, value) in fields {
            // Lowercased once, then looked up: cheaper than comparing without case to each name.
            let name = name.lowercased()
            if HTTPHeaders.credentialNames.contains(name) || extra.contains(name) { credentials.append((name, value)) }
        }
        guard !credentials.isEmpty else { return .common }
        if credentials.count > 1 { credentials.sort { $0.name < $1.name } }
        var message: [UInt8] = []
        message.reserveCapacity(credentials.reduce(0) { $0 + 8 + $1.name.utf8.count + $1.value.utf8.count })
        for (name, value) in credentials {
            append(name, to: &message)
            append(value, to: &message)
        }
        if let digest = lastDigest.withLock({ $0?.message == message ? $0?.digest : nil }) {
            return CachePartition(digest: digest)
        }
        let code = authenticator.authenticate(message)
        let digest = String(unsafeUninitializedCapacity: 2 * code.count) { text in
            for (index, byte) in code.enumerated() {
                text[2 * index] = hexDigit(byte >> 4)
                text[2 * index + 1] = hexDigit(byte & 0x0f)
            }
            return 2 * code.count
        }
        lastDigest.withLock { $0 = (message, digest) }
        return CachePartition(digest: digest)
    }

    /// The lowercase hex digit of `value` (below 16), as UTF-8.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// The storage key of `method` on `url` in this partition.
    func key(_ method: HTTPMethod, _ url: URL) -> String { CachingPerformer.key(method, url, digest: digest) }

    /// Appends `text` as its length in four bytes, then its UTF-8 bytes, so that no two
    /// lists of fields make the same message.
    private static func append(_ text: String, to message: inout [UInt8]) {
        let count = UInt32(truncatingIfNeeded: text.utf8.count)
        message.append(UInt8(truncatingIfNeeded: count >> 24))
        message.append(UInt8(truncatingIfNeeded: count >> 16))
        message.append(UInt8(truncatingIfNeeded: count >> 8))
        message.append(UInt8(truncatingIfNeeded: count))
        message.append(contentsOf: text.utf8)
    }
}
