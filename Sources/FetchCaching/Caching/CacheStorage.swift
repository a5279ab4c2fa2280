import Fetch

/// Where a caching layer keeps its responses, one per key. A key is the method, a space and the URL without its
/// fragment (`GET https://api.example.com/me`), then, for a request with credentials, a space and a random UUID per set
/// of credentials, so no key reveals one. The second to fourth variants of a response that varies are under the key, a
/// space and `#1`, `#2` or `#3`.
///
/// Every method may be called from any thread at any time, so a conformer guards its state
/// (a lock or a serial queue) and keeps the read on the path of a hit quick.
public protocol CacheStorage: Sendable {
    /// The response stored under `key`, if any.
    func response(for key: String) -> CachedResponse?
    /// Stores `response` under `key`, replacing what was stored there.
    func store(_ response: CachedResponse, for key: String)
    /// Removes what is stored under `key`.
    func removeResponse(for key: String)
    /// Removes everything.
    func removeAll()
}
