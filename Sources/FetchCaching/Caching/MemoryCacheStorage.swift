import Fetch

/// A ``CacheStorage`` in memory, bounded in bytes by each response's ``CachedResponse/cost``: the least recently used
/// responses go first, one larger than the whole capacity is not stored, and nothing is written to disk.
public final class MemoryCacheStorage: CacheStorage, @unchecked Sendable {
    // `lock` guards `entries`, `newest`, `oldest`, `used` and every `Node`'s links, so their
    // accesses skip the run-time exclusivity check a hit would otherwise pay on each one.
    private let lock = Guarded(())
    @exclusivity(unchecked) private var entries: [String: Node] = [:]
    /// The most recently used entry; each node's `older` leads to the least recently used.
    @exclusivity(unchecked) private var newest: Node?
    @exclusivity(unchecked) private weak var oldest: Node?
    @exclusivity(unchecked) private var used = 0
    /// The most bytes stored at once.
    public let capacity: Int

    private final class Node {
        let key: String
        var response: CachedResponse
        let cost: Int
        var older: Node?
        weak var newer: Node?

        init(key: String, response: CachedResponse) {
            self.key = key
            self.response = response
            cost = response.cost
        }
    }

    /// Makes an empty storage of at most `capacity` bytes; 10 MiB by default.
    public init(capacity: Int = 10 * 1024 * 1024) {
        self.capacity = max(0, capacity)
    }

    /// The response under `key`, which becomes the most recently used.
    public func response(for key: String) -> CachedResponse? {
        lock.withLock { _ in
            guard let node = entries[key] else { return nil }
            moveToFront(node)
            return node.response
        }
    }

    /// Stores `response` under `key` as the most recently used, dropping the least recently
    /// used ones until it fits; one larger than `capacity` only removes what `key` held.
    public func store(_ response: CachedResponse, for key: String) {
        let node = Node(key: key, response: response)
        lock.withLock { _ in
            // The key is hashed once: its old node comes back from the table as the new one goes in.
            guard node.cost <= capacity else {
                if let old = entries.removeValue(forKey: key) { detach(old) }
                return
            }
            if let old = entries.updateValue(node, forKey: key) { detach(old) }
            used += node.cost
            moveToFront(node)
            while used > capacity, let victim = oldest, victim !== node { unlink(victim) }
        }
    }

    /// Removes the response under `key`.
    public func removeResponse(for key: String) {
        lock.withLock { _ in
            if let node = entries[key] { unlink(node) }
        }
    }

    /// Removes every response.
    public func removeAll() {
        lock.withLock { _ in
            while let node = oldest { unlink(node) }
        }
    }

    /// How many bytes the stored responses take, by their ``CachedResponse/cost``.
    public var usedBytes: Int { lock.withLock { _ in used } }

    /// How many responses are stored.
    public var count: Int { lock.withLock { _ in entries.count } }

    /// Takes `node` out of the table and the list; under the lock.
    private func unlink(_ node: Node) {
        entries[node.key] = nil
        detach(node)
    }

    /// Takes `node` out of the list and its cost out of `used`; under the lock.
    private func detach(_ node: Node) {
        used -= node.cost
        takeOut(node)
    }

    /// Takes `node` out of the list, if it is in it; under the lock.
    private func takeOut(_ node: Node) {
        if newest === node { newest = node.older }
        if oldest === node { oldest = node.newer }
        node.newer?.older = node.older
        node.older?.newer = node.newer
        node.older = nil
        node.newer = nil
    }

    /// Makes `node`, in the list or not yet, the most recently used; under the lock.
    private func moveToFront(_ node: Node) {
        guard newest !== node else { return }
        takeOut(node)
        node.older = newest
        newest?.newer = node
        newest = node
        if oldest == nil { oldest = node }
    }
}
