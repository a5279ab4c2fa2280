import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch
import FetchTesting
import Testing
@testable import FetchCaching

/// A clock for a cache or a cookie jar that moves only when a test says so.
final class TestClock: @unchecked Sendable {
    // `lock` guards `current`.
    private let lock = NSLock()
    private var current: Date

    /// A clock showing `start`.
    init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { current = start }

    var now: Date { lock.withLock { current } }

    func advance(seconds: Double) { lock.withLock { current += seconds } }
}

/// `date` as an HTTP date (IMF-fixdate).
func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
}

/// A spy, a cache over it with a test clock and its own storage, and helpers to script answers.
struct CacheFixture {
    let spy: SpyPerformer
    let clock = TestClock()
    let storage: MemoryCacheStorage
    let cache: LayeredPerformer

    init(
        heuristicFraction: Double? = nil, capacity: Int = 1 << 20, sensitiveHeaders: Set<String> = [],
        _ answers: [SpyPerformer.Answer] = []
    ) {
        spy = SpyPerformer(answers)
        storage = MemoryCacheStorage(capacity: capacity)
        let clock = self.clock
        cache = spy.caching(
            CacheConfiguration(
                storage: storage, heuristicFraction: heuristicFraction, sensitiveHeaders: sensitiveHeaders
            ) { clock.now })
    }

    /// A response dated now on the fixture's clock, with `headers` and `body`.
    func answer(_ status: Int = 200, _ headers: HTTPHeaders = [:], body: String = "stored body") -> SpyPerformer.Answer
    {
        .response(
            Response(
                status: status, headers: headers.merging(defaults: ["Date": httpDate(clock.now)]),
                body: Data(body.utf8)))
    }

    /// Scripts `answer` as the spy's next answer.
    func next(_ answer: SpyPerformer.Answer) { spy.enqueue(answer) }

    /// Performs `request` and returns its response, or `nil` when it failed or did not complete at once.
    func get(_ request: any Request = resource()) -> Response? {
        performNow(cache, request).flatMap { try? $0.get() }
    }

    /// Asks for the resource after `first` seconds, then `second` seconds later (answering a
    /// revalidation with a 304), and says how the cache served each.
    func served(after first: Double, thenAfter second: Double) -> (CacheStatus?, CacheStatus?) {
        clock.advance(seconds: first)
        let earlier = get()
        clock.advance(seconds: second)
        next(answer(304, [:], body: ""))
        return (earlier?.metrics.cache, get()?.metrics.cache)
    }

    /// The header `name` of the `index`th request the spy received; a recorded issue when
    /// it received no such request.
    func sentHeader(_ name: String, of index: Int) -> String? {
        let sent = spy.urlRequests
        guard sent.indices.contains(index) else {
            Issue.record("no request \(index): the spy received \(sent.count)")
            return nil
        }
        return sent[index]?.value(forHTTPHeaderField: name)
    }
}

/// A GET of the cached resource.
func resource(
    _ path: String = "/items/1", method: HTTPMethod = .get, headers: HTTPHeaders = [:],
    policy: CachePolicy? = nil
) -> BasicRequest {
    var options = RequestOptions()
    if let policy { options.cachePolicy = policy }
    return BasicRequest(
        url: URL(string: "https://api.example.com\(path)")!, method: method, headers: headers, options: options)
}

extension Response {
    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A storage in a plain dictionary, standing for one a user writes.
final class DictionaryStorage: CacheStorage, @unchecked Sendable {
    // `lock` guards `entries`.
    private let lock = NSLock()
    private var entries: [String: CachedResponse] = [:]

    var keys: [String] { lock.withLock { entries.keys.sorted() } }
    func response(for key: String) -> CachedResponse? { lock.withLock { entries[key] } }
    func store(_ response: CachedResponse, for key: String) { lock.withLock { entries[key] = response } }
    func removeResponse(for key: String) { lock.withLock { entries[key] = nil } }
    func removeAll() { lock.withLock { entries = [:] } }
}
