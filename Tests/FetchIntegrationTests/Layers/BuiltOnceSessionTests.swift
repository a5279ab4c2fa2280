import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchCaching

/// The README's recommended stack over a real `Session` builds each attempt's request once:
/// the token closure of `BearerToken` runs once per attempt, and httpbin sees that token.
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct BuiltOnceSessionTests {
    /// A count that callbacks on any thread add to.
    final class Counter: @unchecked Sendable {
        // `lock` guards `value`.
        private let lock = NSLock()
        private var value = 0

        /// Adds one and returns the new count.
        func increment() -> Int {
            lock.withLock {
                value += 1
                return value
            }
        }

        var count: Int { lock.withLock { value } }
    }

    struct BearerEcho: Decodable, Parsable {
        let token: String
    }

    @Test func theRecommendedStackRunsTheTokenClosureOncePerCall() async throws {
        // Given the README's recommended order over a session, against httpbin
        let servers = try LoopbackServers.require()
        let tokens = Counter()
        let api = Session()
            .retrying(.exponential(maxAttempts: 3))
            .caching()
            .coalescing()
            .enhanced(by: BaseURL(servers.httpbin.url("/")), BearerToken { "token-\(tokens.increment())" })
            .logging(LogConfiguration(options: .default) { _ in })

        // When two calls go through it, one after the other
        let first = try await api.perform(BasicRequest(url: URL(string: "bearer")!), as: BearerEcho.self)
        let second = try await api.perform(BasicRequest(url: URL(string: "bearer")!), as: BearerEcho.self)

        // Then the closure ran once per call, and the server saw each call's own token
        #expect(tokens.count == 2)
        #expect(first.token == "token-1")
        #expect(second.token == "token-2")
    }
}
