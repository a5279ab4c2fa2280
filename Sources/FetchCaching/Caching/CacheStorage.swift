import Fetch

/// Where a caching layer keeps its responses: one per key. A key is the method, a space and
/// the URL without its fragment (`GET https://api.example.com/me`); for a request with
/// credentials, a space and a UUID follow: drawn at random for each set of credentials the
/// cache meets, so no key holds or reveals a credential, and the entries of requests with
/// credentials are not found again by another process. The second to fourth variants of a
/// response that varies (`Vary`) are kept under the key followed by a space and `#1`, `#2`
/// or `#3`.
///
/// Fetch's own is ``MemoryCacheStorage``, in memory, bounded in bytes. Conform a type of
/// your own to keep responses elsewhere, on disk for instance. Every method may be called
/// from any thread at any time, so a conformer guards its state (with a lock or a serial
/// queue); a read on the path of a cache hit should be quick.
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
