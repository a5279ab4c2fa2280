import Foundation
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// Identical GET and HEAD calls in flight share one request; cancelling leaves the others waiting.
@Suite struct CoalescingPerformerTests {
    /// A spy that holds every call open, and a coalescing layer over it.
    private func held() -> (SpyPerformer, CoalescingPerformer) {
        let spy = SpyPerformer(match: { _ in .hold })
        return (spy, spy.coalescing(ignoringHeaders: ["X-Request-ID"]))
    }

    private func request(_ path: String = "/a", method: HTTPMethod = .get, headers: HTTPHeaders = [:]) -> BasicRequest {
        BasicRequest(url: URL(string: "https://api.example.com\(path)")!, method: method, headers: headers)
    }

    @Test func identicalCallsInFlightShareOneRequest() throws {
        // Given two identical GETs made while the first is in flight
        let (spy, performer) = held()
        let first = Recorder<Result<Response, any Error>>()
        let second = Recorder<Result<Response, any Error>>()
        let one = request(headers: ["Accept": "application/json"])
        let two = request(headers: ["Accept": "application/json"])
        performer.perform(one) { first.record($0) }
        performer.perform(two) { second.record($0) }

        // When the one request the spy got is answered
        #expect(spy.calls.count == 1)
        try #require(spy.pending.first).respond(.status(200, body: "shared"))

        // Then both callers got the response, each with its own request, marked shared
        let a = try #require(try first.single?.get())
        let b = try #require(try second.single?.get())
        #expect(
            String(decoding: a.body, as: UTF8.self) == "shared" && String(decoding: b.body, as: UTF8.self) == "shared")
        #expect((a.request as? BasicRequest)?.headers == one.headers)
        #expect(a.metrics.shared && b.metrics.shared)
        #expect(performer.inFlightCount == 0)
    }

    @Test func headerCasingAndOrderDoNotMakeCallsDifferent() {
        // Given two GETs whose headers differ only in casing and order, and an ignored header
        let (spy, performer) = held()

        // When both are made
        performer.perform(request(headers: ["Accept": "a", "X-Lang": "en", "X-Request-ID": "1"])) { _ in }
        performer.perform(request(headers: ["x-lang": "en", "accept": "a", "X-Request-ID": "2"])) { _ in }

        // Then one request went out
        #expect(spy.calls.count == 1)
    }

    @Test(arguments: [
        ("a different header value", ["Accept": "text/plain"] as HTTPHeaders, "/a", HTTPMethod.get),
        ("a different URL", ["Accept": "application/json"] as HTTPHeaders, "/b", HTTPMethod.get),
        ("a different method", ["Accept": "application/json"] as HTTPHeaders, "/a", HTTPMethod.head),
    ])
    func callsThatDifferAreNotShared(_ what: String, headers: HTTPHeaders, path: String, method: HTTPMethod) {
        // Given a GET in flight
        let (spy, performer) = held()
        performer.perform(request(headers: ["Accept": "application/json"])) { _ in }

        // When a call with `what` is made
        performer.perform(request(path, method: method, headers: headers)) { _ in }

        // Then it sent its own request
        #expect(spy.calls.count == 2, "\(what)")
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete])
    func otherMethodsAreNeverCoalesced(_ method: HTTPMethod) {
        // Given two identical calls of a method that is not GET or HEAD
        let (spy, performer) = held()

        // When both are made
        performer.perform(request(method: method)) { _ in }
        performer.perform(request(method: method)) { _ in }

        // Then each sent its own request
        #expect(spy.calls.count == 2)
    }

    @Test func cancellingOneCallerLeavesTheSharedRequestToTheOthers() throws {
        // Given two callers sharing a request
        let (spy, performer) = held()
        let first = Recorder<Result<Response, any Error>>()
        let second = Recorder<Result<Response, any Error>>()
        let handle = performer.perform(request()) { first.record($0) }
        performer.perform(request()) { second.record($0) }

        // When the first cancels, then the request is answered
        handle.cancel()
        let pending = try #require(spy.pending.first)
        #expect(!pending.isCancelled)
        pending.respond(.status(200))

        // Then the first got its cancellation, the second the response, once each
        #expect(fetchError(first.single)?.code == .cancelled)
        #expect(outcome(second.single) == "200")
        #expect(first.count == 1 && second.count == 1)
    }

    @Test func theLastCallerToCancelCancelsTheSharedRequest() throws {
        // Given two callers sharing a request
        let (spy, performer) = held()
        let results = Recorder<Result<Response, any Error>>()
        let one = performer.perform(request()) { results.record($0) }
        let two = performer.perform(request()) { results.record($0) }
        let pending = try #require(spy.pending.first)

        // When both cancel
        one.cancel()
        #expect(!pending.isCancelled)
        two.cancel()

        // Then the request was cancelled, and each caller completed once with cancelled
        #expect(pending.isCancelled)
        #expect(results.all.map { fetchError($0)?.code } == [.cancelled, .cancelled])
        #expect(performer.inFlightCount == 0)
    }

    @Test func aCallAfterTheSharedRequestEndedSendsANewOne() {
        // Given a spy that answers at once
        let spy = SpyPerformer(match: { _ in .status(200) })
        let performer = spy.coalescing()

        // When two identical calls are made one after the other
        let first = performNow(performer, request())
        let second = performNow(performer, request())

        // Then each sent its own request, and neither response was shared
        #expect(spy.calls.count == 2)
        #expect((try? first?.get())?.metrics.shared == false && (try? second?.get())?.metrics.shared == false)
    }

    @Test func aCallThatJoinsAfterTheCancelOfEveryoneStartsAfresh() throws {
        // Given a shared request whose only caller left
        let (spy, performer) = held()
        performer.perform(request()) { _ in }.cancel()

        // When an identical call is made
        let results = Recorder<Result<Response, any Error>>()
        performer.perform(request()) { results.record($0) }

        // Then it sent a new request, which answers it
        #expect(spy.calls.count == 2)
        try #require(spy.pending.first).respond(.status(200))
        #expect(outcome(results.single) == "200")
    }

    @Test func spellingsOfOneNameMakeTheSameKeyInAnyOrder() throws {
        // Given one field in three spellings, listed in every order, and once with another value
        let url = try #require(URL(string: "https://api.example.com/a"))
        let fields = [("X-Tag", "b"), ("x-tag", "c"), ("X-TAG", "a")].map { (key: $0.0, value: $0.1) }
        let orders = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        // When each is keyed
        let keys = orders.map { order in CoalescingKey("GET", url, fields: order.map { fields[$0] }, ignoring: []) }
        var other = fields
        other[2].value = "z"
        // Then every order makes one key, and another value another
        #expect(Set(keys).count == 1)
        #expect(CoalescingKey("GET", url, fields: other, ignoring: []) != keys[0])
        // And an empty spelling counts too, in either order
        let empty = [(key: "X-Tag", value: ""), (key: "x-tag", value: "a")]
        let emptyKey = CoalescingKey("GET", url, fields: empty, ignoring: [])
        #expect(emptyKey == CoalescingKey("GET", url, fields: empty.reversed(), ignoring: []))
        #expect(emptyKey != CoalescingKey("GET", url, fields: [(key: "X-Tag", value: "a")], ignoring: []))
    }

    @Test func failuresReachEveryCaller() throws {
        // Given two callers sharing a request
        let (spy, performer) = held()
        let results = Recorder<Result<Response, any Error>>()
        performer.perform(request()) { results.record($0) }
        performer.perform(request()) { results.record($0) }

        // When it fails
        try #require(spy.pending.first).fail(FetchError(.connectionLost, reason: "gone"))

        // Then both callers got the failure
        #expect(results.all.map { fetchError($0)?.code } == [.connectionLost, .connectionLost])
    }

    @Test func aCancelAfterTheResultChangesNothing() {
        // Given a call that completed
        let performer = SpyPerformer(match: { _ in .status(200) }).coalescing()
        let results = Recorder<Result<Response, any Error>>()
        let handle = performer.perform(request()) { results.record($0) }

        // When it is cancelled afterwards
        handle.cancel()

        // Then it completed once, with the response
        #expect(results.all.map { outcome($0) } == ["200"])
    }

    @Test func aThousandConcurrentCallersWithRandomCancellation() throws {
        for round in 0..<6 {
            // Given 1,000 callers of one URL on many threads, some cancelling at random
            let (spy, performer) = held()
            let counts = CompletionCounts(callers: 1000)
            let handles = Recorder<(Int, any Cancellable)>()
            var generator = SystemRandomNumberGenerator()
            // Rounds 0 and 1 cancel every caller; the others cancel some.
            let cancels = (0..<1000).map { _ in round < 2 || Bool.random(using: &generator) }
            DispatchQueue.concurrentPerform(iterations: 1000) { index in
                let handle = performer.perform(request()) { counts.record(index, $0) }
                if cancels[index] { handle.cancel() } else { handles.record((index, handle)) }
            }

            // When the one request still in flight is answered (a request whose callers had
            // all left already was cancelled), and every remaining handle is cancelled too late
            let everyoneLeft = cancels.allSatisfy { $0 }
            let live = spy.pending
            #expect(live.count == (everyoneLeft ? 0 : 1), "round \(round)")
            live.first?.respond(.status(200))
            let remaining = handles.all
            DispatchQueue.concurrentPerform(iterations: remaining.count) { remaining[$0].1.cancel() }

            // Then every caller completed exactly once: cancelled when it cancelled, 200 otherwise,
            // so no request was cancelled while a caller still waited for it
            #expect(counts.exactlyOnce, "round \(round)")
            #expect(counts.outcomes(for: cancels) == [], "round \(round)")
            #expect(spy.calls.count >= 1)
            #expect(spy.pending.isEmpty)
            #expect(performer.inFlightCount == 0)
        }
    }
}

/// How many times each of a number of callers completed, and how.
private final class CompletionCounts: @unchecked Sendable {
    // `lock` guards `results`.
    private let lock = NSLock()
    private var results: [[String]]

    init(callers: Int) { results = Array(repeating: [], count: callers) }

    func record(_ caller: Int, _ result: Result<Response, any Error>) {
        lock.withLock { results[caller].append(outcome(result)) }
    }

    /// Whether every caller completed exactly once.
    var exactlyOnce: Bool { lock.withLock { results.allSatisfy { $0.count == 1 } } }

    /// The callers whose outcome does not match what they did: cancelled if they cancelled, 200 otherwise.
    func outcomes(for cancels: [Bool]) -> [Int] {
        lock.withLock {
            results.indices.filter { results[$0] != [cancels[$0] ? "cancelled" : "200"] }
        }
    }
}
