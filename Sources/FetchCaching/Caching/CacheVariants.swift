import Fetch

/// The responses, at most `limit`, kept for one method, URL and set of credentials whose server varies them (`Vary`,
/// RFC 9111 section 4.1): the first under the storage key, the others under it plus ` #1`, ` #2` or ` #3`. All vary on
/// the same fields; one that varies on others, or on none, replaces them all.
enum CacheVariants {
    static let limit = 4

    static func key(_ key: String, slot: Int) -> String {
        slot == 0 ? key : "\(key) #\(slot)"
    }

    /// The variants under `key` besides `first`, read already; none when `first` varies on nothing.
    static func others(of key: String, first: CachedResponse?, in storage: any CacheStorage) -> [CachedResponse] {
        if let first, first.varying.isEmpty { return [] }
        return (1..<limit).compactMap { storage.response(for: Self.key(key, slot: $0)) }
    }

    /// Stores `response` in place of the variant with its values, else in a free slot, else in the first.
    static func store(_ response: CachedResponse, under key: String, in storage: any CacheStorage) {
        // The usual case: neither the stored response nor this one varies, so there are no others.
        if response.varying.isEmpty, let first = storage.response(for: key), first.varying.isEmpty {
            return storage.store(response, for: key)
        }
        let names = Set(response.varying.keys)
        var free: Int?
        var own: Int?
        for slot in 0..<limit {
            let stored = storage.response(for: Self.key(key, slot: slot))
            if let stored, Set(stored.varying.keys) == names {
                if own == nil, stored.varying == response.varying { own = slot }
                continue
            }
            // Variants of another shape are gone once the server varies otherwise.
            if stored != nil, slot > 0 { storage.removeResponse(for: Self.key(key, slot: slot)) }
            if free == nil { free = slot }
        }
        storage.store(response, for: Self.key(key, slot: own ?? free ?? 0))
    }

    static func removeAll(under key: String, in storage: any CacheStorage) {
        for slot in 0..<limit { storage.removeResponse(for: Self.key(key, slot: slot)) }
    }
}
