import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// A request's own enhancers (`options.enhancers`) run once per attempt, whatever enhancing
/// layers the stack has.
@Suite struct OwnEnhancersTests {
    /// Counts its runs and adds `X-Group: a`; verifies the response is not a 500.
    final class GroupHeader: Enhancer, @unchecked Sendable {
        // `lock` guards `runs` and `responses`.
        private let lock = NSLock()
        private var runs = 0
        private var responses = 0

        var counts: (requests: Int, responses: Int) { lock.withLock { (runs, responses) } }

        func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
            lock.withLock { runs += 1 }
            urlRequest.setValue("a", forHTTPHeaderField: "X-Group")
        }

        func enhance(_ response: inout Response) throws {
            lock.withLock { responses += 1 }
        }
    }

    private static func request(_ group: GroupHeader) -> BasicRequest {
        BasicRequest(
            url: URL(string: "https://api.example.com/items")!,
            options: RequestOptions().with(\.enhancers, [group]))
    }

    @Test(arguments: ["spy alone", "one enhancing layer", "two enhancing layers", "coalescing and cache"])
    func runOncePerCallOverTheSpy(stack: String) throws {
        // Given a request whose own enhancer adds a group header, and a stack over a spy
        let spy = SpyPerformer([.status(200)])
        let performer: any RequestPerforming =
            switch stack {
            case "one enhancing layer": spy.enhanced(by: Accept.json)
            case "two enhancing layers":
                spy.enhanced(by: Accept.json).hooking(pre: [], post: []).enhanced(by: Accept.json)
            case "coalescing and cache": spy.caching().coalescing()
            default: spy
            }
        let group = GroupHeader()

        // When the request is performed
        let result = performNow(performer, Self.request(group))

        // Then the header was sent, and the enhancer ran once each way
        #expect(outcome(result) == "200")
        #expect(spy.urlRequests.first??.value(forHTTPHeaderField: "X-Group") == "a")
        #expect(group.counts == (1, 1))
    }

    @Test func runAgainForEachAttempt() {
        // Given a retrying stack over a spy that fails once with 503, and no enhancing layer
        let spy = SpyPerformer([.status(503), .status(200)])
        let performer = spy.retrying(.exponential(maxAttempts: 2), scheduler: ImmediateScheduler())
        let group = GroupHeader()

        // When the request is performed
        let result = performNow(performer, Self.request(group))

        // Then both attempts carried the header, and the enhancer ran once per attempt
        #expect(outcome(result) == "200")
        #expect(spy.urlRequests.map { $0?.value(forHTTPHeaderField: "X-Group") } == ["a", "a"])
        #expect(group.counts.requests == 2)
    }
}
