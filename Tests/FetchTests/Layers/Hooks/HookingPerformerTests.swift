import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct HookingPerformerTests {
    @Test func preHooksRunInOrderEachOnThePreviousOutput() throws {
        // Given two hooks that each add a path component
        let spy = SpyPerformer([.status(200)])
        let performer = spy.hooking(pre: [
            PreRequestHook { BasicRequest(url: $0.url.appendingPathComponent("a")) },
            PreRequestHook { BasicRequest(url: $0.url.appendingPathComponent("b")) },
        ])

        // When a request is performed
        let response = try #require(performNow(performer, get("http://x"))).get()

        // Then the spy got the request of the second hook, and the caller its own request back
        #expect(spy.requests.first?.url.absoluteString == "http://x/a/b")
        #expect(response.request.url.absoluteString == "http://x")
    }

    @Test func aThrowingPreHookStopsTheCallNamingIt() {
        // Given a hook that refuses every call
        struct Offline: Error {}
        let spy = SpyPerformer([.status(200)])
        let performer = spy.hooking(pre: [PreRequestHook("offline check") { _ in throw Offline() }])

        // When a request is performed
        let error = fetchError(performNow(performer, get("http://x")))

        // Then nothing was sent and the error names the hook
        #expect(spy.calls.isEmpty)
        #expect(error?.code == .layer)
        #expect(error?.layer == "offline check")
        #expect(error?.underlying is Offline)
    }

    @Test func postHooksSeeTheResponseAndTheOriginalRequest() {
        // Given a pre hook that rewrites the request and a post hook that records what it sees
        let seen = Recorder<String>()
        let performer = SpyPerformer([.status(201)]).hooking(
            pre: [PreRequestHook { _ in get("http://x/rewritten") }],
            post: [
                PostRequestHook { response, original in
                    seen.record("\(response.status) \(original.url.path)")
                    return .continue
                }
            ]
        )

        // When a request is performed
        let result = performNow(performer, get("http://x/original"))

        // Then the hook saw the response and the caller's original request
        #expect(outcome(result) == "201")
        #expect(seen.all == ["201 /original"])
    }

    @Test func aPostHookCanSendANewRequestWhoseResponseGoesOn() {
        // Given a hook that follows a 202 to its job URL, and a later hook that records statuses
        let seen = Recorder<Int>()
        let spy = SpyPerformer([.status(202, headers: ["Location": "http://x/job"]), .status(200)])
        let performer = spy.hooking(post: [
            PostRequestHook("follow") { response, _ in
                guard response.status == 202, let location = response.headers.first("Location") else {
                    return .continue
                }
                return .send(get(location))
            },
            PostRequestHook("record") { response, _ in
                seen.record(response.status)
                return .continue
            },
        ])

        // When a request is performed
        let result = performNow(performer, get("http://x/start"))

        // Then the job was fetched, only its response went to the later hook, and the caller got it
        #expect(spy.requests.map(\.url.path) == ["/start", "/job"])
        #expect(seen.all == [200])
        #expect(outcome(result) == "200")
    }

    @Test func completedSkipsTheRemainingHooks() {
        // Given a hook that completes and one after it that must not run
        let seen = Recorder<String>()
        let performer = SpyPerformer([.status(304)]).hooking(post: [
            PostRequestHook { _, _ in .completed },
            PostRequestHook { _, _ in
                seen.record("ran")
                return .continue
            },
        ])

        // When a request is performed
        let result = performNow(performer, get("http://x"))

        // Then the response was delivered and the second hook never ran
        #expect(outcome(result) == "304")
        #expect(seen.all.isEmpty)
    }

    @Test func aThrowingPostHookFailsTheCallNamingIt() {
        // Given a post hook that throws
        struct Bad: Error {}
        let performer = SpyPerformer([.status(200)]).hooking(post: [PostRequestHook("audit") { _, _ in throw Bad() }])

        // When a request is performed
        let error = fetchError(performNow(performer, get("http://x")))

        // Then the call fails naming the hook
        #expect(error?.layer == "audit")
        #expect(error?.underlying is Bad)
    }

    @Test func errorsPassPostHooksBy() {
        // Given a post hook that records every call
        let seen = Recorder<Int>()
        let performer = SpyPerformer([.failure(.timedOut)]).hooking(post: [
            PostRequestHook { response, _ in
                seen.record(response.status)
                return .continue
            }
        ])

        // When the call fails
        let result = performNow(performer, get("http://x"))

        // Then the error is delivered and the hook saw nothing
        #expect(outcome(result) == "timedOut")
        #expect(seen.all.isEmpty)
    }

    @Test func cancellingCancelsTheRequestAHookSent() {
        // Given a hook that sends a second request, which is held
        let spy = SpyPerformer([.status(202), .hold])
        let recorder = Recorder<Result<Response, any Error>>()
        let handle = spy.hooking(post: [
            PostRequestHook { response, _ in
                response.status == 202 ? .send(get("http://x/next")) : .continue
            }
        ]).perform(get("http://x")) { recorder.record($0) }
        #expect(spy.pending.count == 1)

        // When the caller cancels
        handle.cancel()

        // Then the second request was cancelled and the caller got one cancellation
        #expect(spy.pending.isEmpty)
        #expect(outcome(recorder.single) == "cancelled")
    }

    @Test func callbackAndAsyncCallersSeeTheSame() async {
        // Given identical stacks with a rewriting pre hook and a following post hook
        func stack() -> LayeredPerformer {
            SpyPerformer([.status(202), .status(200)]).hooking(
                pre: [PreRequestHook { $0 }],
                post: [
                    PostRequestHook { response, _ in response.status == 202 ? .send(get("http://x/next")) : .continue }
                ]
            )
        }

        // When one is called with a callback and one with async/await
        let callback = outcome(performNow(stack(), get("http://x")))
        let async = await asyncOutcome(stack(), get("http://x"))

        // Then both get the 200
        #expect(callback == "200")
        #expect(async == callback)
    }
}
