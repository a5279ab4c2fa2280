import Fetch

/// The credentials a request carries (the Caching article says which fields count): each set has a private cache whose
/// keys end with a random identifier, kept by the ``CacheConfiguration`` and its copies, which alone find them.
struct CachePartition: Hashable, Sendable {
    /// The identifier of the set of credentials, or `nil` for a request without credentials.
    let identifier: String?

    static let common = CachePartition(identifier: nil)

    /// The identifiers one ``CacheConfiguration`` (and its copies) gave the sets of credentials it met, at most
    /// `limit`; when full, the set met longest ago gets a new one on its next use, its entries only missed.
    struct Identifiers: Sendable {
        /// How many sets of credentials keep their identifier at once.
        static let limit = 1024
        /// Each set's identifier, by its lowercased names and values, alternating, sorted by name.
        private var bySet: [[String]: String] = [:]
        /// The sets in the table, in the order they were met, as a ring whose oldest is at `oldest`.
        private var sets: [[String]] = []
        private var oldest = 0

        /// The identifier of `set`, drawn now when the table has none.
        mutating func identifier(of set: [String]) -> String {
            if let known = bySet[set] { return known }
            if sets.count < Self.limit {
                sets.append(set)
            } else {
                bySet[sets[oldest]] = nil
                sets[oldest] = set
                oldest = (oldest + 1) % Self.limit
            }
            let drawn = UUID().uuidString
            bySet[set] = drawn
            return drawn
        }
    }

    /// The partition of `request`, with header fields `fields`; a function, so its arguments are borrowed, not copied.
    static func of(_ fields: [String: String], _ request: any Request, _ configuration: CacheConfiguration)
        -> CachePartition
    {
        guard !fields.isEmpty else { return .common }
        let own = request.options.sensitiveHeaders
        let extra =
            own.isEmpty
            ? configuration.extraCredentialNames
            : configuration.extraCredentialNames.union(own.map { $0.lowercased() })
        var set: [String] = []
        for (name, value) in fields {
            // Lowercased once, then looked up: cheaper than comparing without case to each name.
            let name = name.lowercased()
            guard Self.credentialNames.contains(name) || extra.contains(name) else { continue }
            let place = stride(from: 0, to: set.count, by: 2).first { set[$0] > name } ?? set.count
            set.insert(contentsOf: [name, value], at: place)
        }
        guard !set.isEmpty else { return .common }
        return CachePartition(identifier: configuration.partitions.withLock { $0.identifier(of: set) })
    }

    private static let credentialNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// The storage key of `method` on `url`: method, space, URL without fragment, then a space and any `identifier`.
    func key(_ method: HTTPMethod, _ url: URL) -> String {
        var text = url.absoluteString
        // `memchr` first (see Benchmarks/README.md): `utf8.firstIndex` goes byte by byte through generic code.
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.baseAddress.flatMap { memchr($0, 0x23, bytes.count) } != nil
        }
        if found != false, let index = text.utf8.firstIndex(of: UInt8(ascii: "#")) { text = String(text[..<index]) }
        let key = method.rawValue + " " + text
        return identifier.map { key + " " + $0 } ?? key
    }
}
