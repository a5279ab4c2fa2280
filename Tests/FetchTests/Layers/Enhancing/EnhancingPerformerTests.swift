import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct EnhancingPerformerTests {
    @Test func aThrowingEnhancerFailsTheCallNamingIt() {
        // Given an enhancer that throws
        let spy = SpyPerformer([.status(200)])
        let performer = spy.enhanced(by: Failing())

        // When a request is performed
        let error = fetchError(performNow(performer, get("http://x/y")))

        // Then the call fails with a layer error naming the enhancer and the request
        #expect(error?.code == .layer)
        #expect(error?.layer == "Failing")
        #expect(error?.url?.absoluteString == "http://x/y")
        #expect(error?.underlying is Failing.Boom)
    }

    @Test func aThrowingResponseEnhancerFailsTheCall() {
        // Given a status verifier and a 500 answer
        let performer = SpyPerformer([.status(500, body: "oops")]).enhanced(by: StatusVerifier(200..<300))

        // When a request is performed
        let error = fetchError(performNow(performer, get("http://x/y")))

        // Then the call fails with httpStatus naming the verifier, with the response attached
        #expect(error?.code == .httpStatus)
        #expect(error?.layer == "StatusVerifier(200..<300)")
        #expect(error?.status == 500)
    }

    @Test func theCallerGetsItsOwnRequestBack() throws {
        // Given a spy below an enhancer
        let performer = SpyPerformer([.status(200)]).enhanced(by: BaseURL("http://api.test"))
        let request = BasicRequest(url: URL(string: "/users")!, headers: ["X-Mine": "1"])

        // When the request is performed
        let response = try #require(performNow(performer, request)).get()

        // Then the response names the caller's request, and what was sent has the full URL
        let returned = try #require(response.request as? BasicRequest)
        #expect(returned.url == request.url)
        #expect(returned.headers["X-Mine"] == "1")
        #expect(response.urlRequest.url?.absoluteString == "http://api.test/users")
    }

    @Test func callbackAndAsyncCallersSeeTheSame() async {
        // Given two identical stacks, one answering 200 and one whose enhancer throws
        func stack(_ failing: Bool) -> LayeredPerformer {
            SpyPerformer([.status(200)]).enhanced(by: failing ? [Failing()] : [Accept.json])
        }

        // When each is called with a callback and with async/await
        let callback = [
            outcome(performNow(stack(false), get("http://x"))), outcome(performNow(stack(true), get("http://x"))),
        ]
        let async = [
            await asyncOutcome(stack(false), get("http://x")), await asyncOutcome(stack(true), get("http://x")),
        ]

        // Then both callers see the same outcomes
        #expect(callback == ["200", "layer"])
        #expect(async == callback)
    }

    @Test func cancellingReachesTheCallBelow() {
        // Given a held call below an enhancer
        let spy = SpyPerformer([.hold])
        let recorder = Recorder<Result<Response, any Error>>()
        let handle = spy.enhanced(by: Accept.json).perform(get("http://x")) { recorder.record($0) }

        // When the caller cancels
        handle.cancel()

        // Then the call completes once, cancelled
        #expect(outcome(recorder.single) == "cancelled")
        #expect(spy.pending.isEmpty)
    }
}

@Suite struct ModifiedRequestTests {
    struct Item: Codable, Parsable, Equatable { let id: Int }
    struct GetItem: TypedRequest {
        typealias Output = Item
        var url: URL { URL(string: "http://x/item")! }
        var headers: HTTPHeaders { ["X-Mine": "1"] }
    }

    @Test func aModifiedTypedRequestStaysTyped() async throws {
        // Given a typed request marked for one call
        let spy = SpyPerformer([try .json(Item(id: 7))])
        let request = GetItem().with(\.deadline, .seconds(3)).with(\.skipsAuthentication, true)

        // When it is performed without naming the type
        let item = try await spy.perform(request)

        // Then it is parsed as the base's model, with both options and the base's own parts
        #expect(item == Item(id: 7))
        #expect(request.options.deadline == .seconds(3))
        #expect(request.options.skipsAuthentication)
        #expect(spy.urlRequests.first??.value(forHTTPHeaderField: "X-Mine") == "1")
    }
}

extension ModifiedRequestTests {
    @Test func anyRequestCanBeModifiedToo() {
        // Given a pre-request hook that marks every request, as hooks see them: as any Request
        let spy = SpyPerformer([.status(200)])
        let performer = spy.hooking(pre: [PreRequestHook { $0.with(\.logOptions, LogOptions.all) }])

        // When a request is performed
        let result = performNow(performer, get("http://x"))

        // Then the request below carried the option
        #expect(outcome(result) == "200")
        #expect(spy.requests.first?.options.logOptions == .all)
    }
}
