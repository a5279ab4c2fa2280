import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// The in-memory storage is bounded in bytes and drops the least recently used first; any
/// storage can be plugged in.
@Suite struct CacheStorageTests {
    private func entry(_ size: Int) -> CachedResponse {
        CachedResponse(
            status: 200, headers: [:], body: Data(count: size), url: nil,
            sentRequest: URLRequest(url: URL(string: "http://x/")!), varying: [:],
            requestTime: Date(), responseTime: Date())
    }

    @Test func theLeastRecentlyUsedEntryGoesFirst() {
        // Given room for three entries of 1,000 bytes
        let cost = entry(1000).cost
        let storage = MemoryCacheStorage(capacity: cost * 3)
        storage.store(entry(1000), for: "a")
        storage.store(entry(1000), for: "b")
        storage.store(entry(1000), for: "c")

        // When "a" is read, then a fourth entry comes
        _ = storage.response(for: "a")
        storage.store(entry(1000), for: "d")

        // Then "b", the least recently used, was dropped
        #expect(storage.response(for: "b") == nil)
        #expect(["a", "c", "d"].allSatisfy { storage.response(for: $0) != nil })
        #expect(storage.usedBytes == cost * 3 && storage.count == 3)
    }

    @Test func aLargeEntryDropsAsManyAsItNeeds() {
        // Given three small entries
        let small = entry(100).cost
        let storage = MemoryCacheStorage(capacity: small * 3)
        for key in ["a", "b", "c"] { storage.store(entry(100), for: key) }

        // When an entry twice as large comes
        let large = entry(100 + small)
        storage.store(large, for: "big")

        // Then the two oldest went
        #expect(storage.response(for: "a") == nil && storage.response(for: "b") == nil)
        #expect(storage.response(for: "c") != nil && storage.response(for: "big") != nil)
        #expect(storage.usedBytes == small + large.cost)
    }

    @Test func anEntryLargerThanTheCapacityIsNotStoredAndDropsTheOldOne() {
        // Given a stored entry under "a"
        let storage = MemoryCacheStorage(capacity: 2000)
        storage.store(entry(10), for: "a")

        // When a response larger than the capacity is stored under "a"
        storage.store(entry(5000), for: "a")

        // Then nothing is stored under "a", and nothing else was dropped for it
        #expect(storage.response(for: "a") == nil)
        #expect(storage.usedBytes == 0)
    }

    @Test func replacingAnEntryCountsItsNewSize() {
        // Given an entry replaced by a larger one
        let storage = MemoryCacheStorage()
        storage.store(entry(10), for: "a")
        storage.store(entry(500), for: "a")

        // Then the storage counts only the new one
        #expect(storage.count == 1)
        #expect(storage.usedBytes == entry(500).cost)
    }

    @Test func removingEntries() {
        // Given three entries
        let storage = MemoryCacheStorage()
        for key in ["a", "b", "c"] { storage.store(entry(10), for: key) }

        // When one is removed, then all
        storage.removeResponse(for: "b")
        #expect(storage.count == 2 && storage.response(for: "b") == nil)
        storage.removeAll()

        // Then nothing is left, and the storage still works
        #expect(storage.count == 0 && storage.usedBytes == 0)
        storage.store(entry(10), for: "d")
        #expect(storage.response(for: "d") != nil)
    }

    @Test func theCacheLayerEvictsWhenFull() {
        // Given a cache with room for about one response
        let fixture = CacheFixture(capacity: 1500)
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: String(repeating: "a", count: 800)))
        _ = fixture.get(resource("/a"))
        fixture.next(fixture.answer(200, ["Cache-Control": "max-age=60"], body: String(repeating: "b", count: 800)))
        _ = fixture.get(resource("/b"))

        // Then only the newest is stored
        #expect(fixture.storage.count == 1)
        #expect(fixture.get(resource("/b"))?.metrics.cache == .hit)
    }

    @Test func aStorageOfYourOwnIsUsed() {
        // Given a storage of the test's own
        let storage = DictionaryStorage()
        let spy = SpyPerformer([
            .response(Response(status: 200, headers: ["Cache-Control": "max-age=60"], body: Data("x".utf8)))
        ])
        let cache = spy.caching(CacheConfiguration(storage: storage))

        // When a response is stored and asked for again
        _ = performNow(cache, resource())
        let second = performNow(cache, resource()).flatMap { try? $0.get() }

        // Then it went through that storage
        #expect(storage.keys == ["GET https://api.example.com/items/1"])
        #expect(second?.metrics.cache == .hit)
        #expect(spy.calls.count == 1)
    }
}
