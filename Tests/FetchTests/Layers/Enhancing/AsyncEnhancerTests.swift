import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport

/// A token held by an actor, as apps keep them.
actor TokenActor {
    var current: String
    init(_ token: String) { current = token }
}

/// Reads its token from a ``TokenActor``.
struct ActorBearer: AsyncEnhancer {
    let tokens: TokenActor
    var priority: EnhancerPriority { .low }
    func prepared(for request: any Request) async throws -> any Enhancer {
        FixedHeaders(["Authorization": "Bearer \(await tokens.current)"])
    }
}

/// Appends its mark to the `X-Trace` header, to see the order enhancers ran in.
struct TraceMark: Enhancer {
    let mark: String
    var priority: EnhancerPriority
    func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        urlRequest.setValue(
            (urlRequest.value(forHTTPHeaderField: "X-Trace") ?? "") + mark, forHTTPHeaderField: "X-Trace")
    }
}

/// An async enhancer that waits until the test lets it go, then marks the trace.
final class Gate: AsyncEnhancer, @unchecked Sendable {
    // `lock` guards `waiting` and `opened`.
    private let lock = NSLock()
    private var waiting: CheckedContinuation<Void, Never>?
    private var opened = false
    private let startedStream: AsyncStream<Void>
    private let startedContinuation: AsyncStream<Void>.Continuation

    init() { (startedStream, startedContinuation) = AsyncStream.makeStream(of: Void.self) }

    /// Returns once a call is waiting in the enhancer.
    func waitUntilStarted() async throws {
        _ = try await startedStream.next(within: standardBound, "a call reaching the enhancer")
    }

    var name: String { "Gate" }

    func prepared(for request: any Request) async throws -> any Enhancer {
        await withCheckedContinuation { continuation in
            let openNow: Bool = lock.withLock {
                if opened { return true }
                waiting = continuation
                return false
            }
            startedContinuation.yield()
            if openNow { continuation.resume() }
        }
        return TraceMark(mark: "g", priority: .normal)
    }

    func open() {
        let continuation: CheckedContinuation<Void, Never>? = lock.withLock {
            opened = true
            defer { waiting = nil }
            return waiting
        }
        continuation?.resume()
    }
}

@Suite struct AsyncEnhancerTests {
    @Test func anEnhancerCanAwaitATokenFromAnActor() async throws {
        // Given a token held by an actor and an enhancer that reads it
        let tokens = TokenActor("abc")
        let spy = SpyPerformer([.status(200)])
        let api = spy.enhanced(by: BaseURL("https://api.example.com"), ActorBearer(tokens: tokens))

        // When a call is made
        let response = try await api.response(for: BasicRequest(url: URL(string: "me")!))

        // Then the request went out with the actor's token and the base URL
        #expect(response.status == 200)
        #expect(try spy.sent(0).header("Authorization") == "Bearer abc")
        #expect(try spy.sent(0).url == URL(string: "https://api.example.com/me"))
    }

    @Test func asyncAndSyncEnhancersRunInPriorityOrder() async throws {
        // Given sync enhancers around an async one, by priority, in one layer and a request's own
        let gate = Gate()
        gate.open()
        let spy = SpyPerformer([.status(200)])
        let api = spy.enhanced(by: TraceMark(mark: "3", priority: .low), gate, TraceMark(mark: "1", priority: .high))
        let request = get("https://api.example.com/a").with(
            \.enhancers, [TraceMark(mark: "2", priority: EnhancerPriority(600))])

        // When a call is made
        _ = try await api.response(for: request)

        // Then they ran by priority, the prepared one in the async one's place
        #expect(try spy.sent(0).header("X-Trace") == "12g3")
    }

    @Test func aCancelledCallStopsWaitingAndCompletesOnceWithoutSending() async throws {
        // Given an async enhancer that waits until it is let go
        let gate = Gate()
        let spy = SpyPerformer([.status(200)])
        let api = spy.enhanced(by: gate, BaseURL("https://api.example.com"))
        let results = Captured<Result<Response, any Error>>()

        // When a call to a relative URL starts, waits in the enhancer, and is cancelled
        let handle = api.perform(get("a")) { results.record($0) }
        try await gate.waitUntilStarted()
        handle.cancel()

        // Then it completed at once with cancelled, naming the URL the layer's base URL makes;
        // letting the enhancer go later sends nothing
        #expect(results.count == 1)
        #expect(fetchError(results.only)?.code == .cancelled)
        #expect(fetchError(results.only)?.url?.absoluteString == "https://api.example.com/a")
        gate.open()
        // The preparation's Task goes on to the send step without suspending; give it time to reach it.
        for _ in 0..<100 { await Task.yield() }
        #expect(results.count == 1)
        #expect(spy.calls.isEmpty)
    }

    @Test func anErrorThePreparationThrowsNamesTheEnhancer() async {
        // Given an async enhancer that throws the app's own error
        struct Locked: Error {}
        struct Keychain: AsyncEnhancer {
            func prepared(for request: any Request) async throws -> any Enhancer { throw Locked() }
        }
        let spy = SpyPerformer([.status(200)])

        // When a call to a relative URL is made
        let error = await #expect(throws: FetchError.self) {
            try await spy.enhanced(by: Keychain(), BaseURL("https://api.example.com")).response(for: get("a"))
        }

        // Then it names the enhancer and the URL the layer's base URL makes, carries the app's
        // error, and nothing was sent
        #expect(error?.layer == "Keychain")
        #expect(error?.url?.absoluteString == "https://api.example.com/a")
        #expect(error?.thrown(as: Locked.self) != nil)
        #expect(spy.calls.isEmpty)
    }

    @Test func overASpyASynchronousEnhancerStaysSynchronous() {
        // Given a layer with synchronous enhancers only
        let spy = SpyPerformer([.status(200)])
        let results = Captured<Result<Response, any Error>>()

        // When a call is made with a callback
        spy.enhanced(by: TraceMark(mark: "1", priority: .high)).perform(get("https://api.example.com/a")) {
            results.record($0)
        }

        // Then it has completed before perform returned
        #expect(results.count == 1)
    }
}
