import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport
import FetchCaching

/// Where completions run over a `Session`: on its completion queue, also when a layer above
/// answers the call itself (a cache hit, a coalesced call), and on a call's own queue when it
/// names one.
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct CompletionQueueSessionTests {
    /// Marks the session's completion queue.
    private static let sessionKey = DispatchSpecificKey<Bool>()
    /// Marks a call's own completion queue.
    private static let ownKey = DispatchSpecificKey<Bool>()

    /// Where one completion ran, and what it got.
    struct Place: Equatable {
        var onSessionQueue = false
        var onOwnQueue = false
        var result = ""
    }

    private static func session() -> Session {
        let queue = DispatchQueue(label: "CompletionQueueSessionTests.session", attributes: .concurrent)
        queue.setSpecific(key: sessionKey, value: true)
        var configuration = Session.Configuration()
        configuration.completionQueue = queue
        return Session(configuration: configuration)
    }

    private static func ownQueue() -> DispatchQueue {
        let queue = DispatchQueue(label: "CompletionQueueSessionTests.own")
        queue.setSpecific(key: ownKey, value: true)
        return queue
    }

    /// Starts `request` on `api` and returns a task that gives where its completion ran.
    private static func start(_ request: any Request, on api: any RequestPerforming) -> (
        handle: any Cancellable, place: Task<Place, Never>
    ) {
        let (stream, continuation) = AsyncStream.makeStream(of: Place.self)
        let handle = api.perform(request) { result in
            let text =
                switch result {
                case .success(let response): "HTTP \(response.status) \(response.metrics.cache.map { "\($0)" } ?? "")"
                case .failure(let error): (error as? FetchError)?.code == .cancelled ? "cancelled" : "\(error)"
                }
            continuation.yield(
                Place(
                    onSessionQueue: DispatchQueue.getSpecific(key: sessionKey) == true,
                    onOwnQueue: DispatchQueue.getSpecific(key: ownKey) == true, result: text))
            continuation.finish()
        }
        let place = Task { await stream.first { _ in true } ?? Place(result: "never completed") }
        return (handle, place)
    }

    private static func place(of request: any Request, on api: any RequestPerforming) async throws -> Place {
        try await start(request, on: api).place.value(within: standardBound, "the call's completion")
    }

    @Test func aCacheHitCompletesOnTheSessionsQueue() async throws {
        // Given a cache over a session with a completion queue, holding httpbin's /cache/60
        let servers = try LoopbackServers.require()
        let api = Self.session().caching()
        let request = BasicRequest(url: servers.httpbin.url("/cache/60"))
        let miss = try await Self.place(of: request, on: api)

        // When the same request is answered from the cache
        let hit = try await Self.place(of: request, on: api)

        // Then both completions ran on the session's queue, not on the caller's thread
        #expect(miss == Place(onSessionQueue: true, result: "HTTP 200 miss"))
        #expect(hit == Place(onSessionQueue: true, result: "HTTP 200 hit"))
    }

    @Test func aCallsOwnQueueWinsOverTheSessionsForAHitAndForASentCall() async throws {
        // Given a cache over a session with a completion queue, holding httpbin's /cache/60
        let servers = try LoopbackServers.require()
        let api = Self.session().caching()
        let url = servers.httpbin.url("/cache/60")
        _ = try await Self.place(of: BasicRequest(url: url), on: api)
        let own = RequestOptions().with(\.completionQueue, Self.ownQueue())

        // When a call with a queue of its own is answered from the cache, and another is sent
        let hit = try await Self.place(of: BasicRequest(url: url, options: own), on: api)
        let sent = try await Self.place(
            of: BasicRequest(url: servers.faults.url("/status?code=204"), options: own), on: api)

        // Then both ran on the call's own queue
        #expect(hit == Place(onOwnQueue: true, result: "HTTP 200 hit"))
        #expect(sent == Place(onOwnQueue: true, result: "HTTP 204 miss"))
    }

    @Test func aLayersQueueGoesToEveryCallThatNamesNone() async throws {
        // Given a cache over a session, under a layer that gives every call its own queue
        let servers = try LoopbackServers.require()
        let api = Self.session().caching().completing(on: Self.ownQueue())
        let url = servers.httpbin.url("/cache/60")

        // When a call is sent, then answered from the cache
        let miss = try await Self.place(of: BasicRequest(url: url), on: api)
        let hit = try await Self.place(of: BasicRequest(url: url), on: api)

        // Then both ran on the layer's queue
        #expect(miss == Place(onOwnQueue: true, result: "HTTP 200 miss"))
        #expect(hit == Place(onOwnQueue: true, result: "HTTP 200 hit"))
    }

    @Test func coalescedCallsCompleteOnTheSessionsQueueAlsoWhenOneIsCancelled() async throws {
        // Given three identical calls sharing one request through coalescing, which the server
        // answers only when the test lets it
        let servers = try LoopbackServers.require()
        let api = Self.session().coalescing()
        let tag = uniqueTag()
        let request = BasicRequest(url: servers.faults.url("/gate?tag=\(tag)"))
        let first = Self.start(request, on: api)
        let joined = Self.start(request, on: api)
        let leaving = Self.start(request, on: api)
        #expect(api.inFlightCount == 1)

        // When the third caller cancels while the request is in flight
        leaving.handle.cancel()

        // Then every completion ran on the session's queue, the cancelled one included
        #expect(
            try await leaving.place.value(within: standardBound) == Place(onSessionQueue: true, result: "cancelled"))
        try await servers.faults.openGate(tag: tag)
        #expect(try await first.place.value(within: standardBound) == Place(onSessionQueue: true, result: "HTTP 200 "))
        #expect(try await joined.place.value(within: standardBound) == Place(onSessionQueue: true, result: "HTTP 200 "))
    }

    @Test func aRequestsOwnEnhancersRunOnceWithAndWithoutEnhancingLayers() async throws {
        // Given a request whose own enhancer adds a group header and counts its runs
        let servers = try LoopbackServers.require()
        let runs = RunCounter()
        let request = BasicRequest(
            url: servers.faults.url("/echo"),
            options: RequestOptions().with(\.enhancers, [CountingHeader(runs: runs)]))
        let stacks: [any RequestPerforming] = [
            Session(), Session().caching().coalescing(),
            Session().enhanced(by: Accept.json).caching().enhanced(by: FixedHeaders(["X-Other": "b"])),
        ]

        // When it is sent through a session alone, under coalescing and a cache, and under
        // two enhancing layers
        var groups: [String?] = []
        for stack in stacks {
            groups.append(try await stack.perform(request, as: EchoedRequest.self).header("x-group"))
        }

        // Then the header arrived every time, and the enhancer ran once per call
        #expect(groups == ["a", "a", "a"])
        #expect(runs.value == 3)
    }
}

/// Counts how often something happened, from any thread.
final class RunCounter: @unchecked Sendable {
    // `lock` guards `count`.
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() { lock.withLock { count += 1 } }
}

/// An enhancer that adds `X-Group: a` and counts its runs.
struct CountingHeader: Enhancer {
    let runs: RunCounter

    func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        runs.increment()
        urlRequest.setValue("a", forHTTPHeaderField: "X-Group")
    }
}
