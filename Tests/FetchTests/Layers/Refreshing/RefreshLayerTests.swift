import Foundation
import Testing
import Fetch
import FetchTesting

/// A refresh the test finishes by hand, counting how often it was started.
final class HeldRefresh: @unchecked Sendable {
    // `lock` guards `done` and `runs`.
    private let lock = NSLock()
    private var done: [@Sendable (Result<Void, any Error>) -> Void] = []
    private var started = 0

    var runs: Int { lock.withLock { started } }

    var handler: RefreshTokenHandler {
        RefreshTokenHandler { [self] done in
            lock.withLock {
                started += 1
                self.done.append(done)
            }
        }
    }

    func finish(_ outcome: Result<Void, any Error>) {
        let all = lock.withLock { () -> [@Sendable (Result<Void, any Error>) -> Void] in
            defer { done = [] }
            return done
        }
        for done in all { done(outcome) }
    }
}

@Suite struct RefreshLayerTests {
    @Test func fiftyConcurrent401sShareOneRefreshThenAllSucceed() {
        // Given 50 calls held open, a refresh held open, and 200s for every resend
        let spy = SpyPerformer(Array(repeating: .hold, count: 50), match: { _ in .status(200) })
        let refresh = HeldRefresh()
        let performer = spy.refreshing(with: refresh.handler)
        let recorders = (0..<50).map { _ in Recorder<Result<Response, any Error>>() }
        for recorder in recorders { performer.perform(get("http://x")) { recorder.record($0) } }
        let first = spy.pending

        // When every first attempt gets 401, then the refresh succeeds
        for call in first { call.respond(.status(401)) }
        let runsWhileWaiting = refresh.runs
        let deliveredWhileWaiting = recorders.map(\.count).reduce(0, +)
        refresh.finish(.success(()))

        // Then exactly one refresh ran, nothing was delivered before it ended, and all 50 resends succeeded
        #expect(first.count == 50)
        #expect(runsWhileWaiting == 1)
        #expect(deliveredWhileWaiting == 0)
        #expect(refresh.runs == 1)
        #expect(spy.calls.count == 100)
        #expect(recorders.map { outcome($0.single) } == Array(repeating: "200", count: 50))
    }

    @Test func fiftyCallsOnManyThreadsRefreshOnce() {
        // Given a server that wants the new token, and a refresh that stores it at once
        let store = TokenStore("old")
        let refreshes = Recorder<Int>()
        let spy = SpyPerformer(match: { request in
            (try? request.makeURLRequest())?.value(forHTTPHeaderField: "Authorization") == "Bearer new"
                ? .status(200) : .status(401)
        })
        let performer = spy.enhanced(by: BearerToken(store)).refreshing(
            with: RefreshTokenHandler { done in
                refreshes.record(1)
                store.token = "new"
                done(.success(()))
            })
        let recorders = (0..<50).map { _ in Recorder<Result<Response, any Error>>() }

        // When 50 calls are made from many threads at once
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            performer.perform(get("http://x")) { recorders[index].record($0) }
        }

        // Then one refresh ran and every call succeeded once
        #expect(refreshes.count == 1)
        #expect(recorders.map { outcome($0.single) } == Array(repeating: "200", count: 50))
    }

    @Test func aFailedRefreshFailsEveryWaiterWithItsError() {
        // Given three calls waiting on a refresh
        struct RefreshFailed: Error {}
        let spy = SpyPerformer([.hold, .hold, .hold])
        let refresh = HeldRefresh()
        let performer = spy.refreshing(with: refresh.handler)
        let recorders = (0..<3).map { _ in Recorder<Result<Response, any Error>>() }
        for recorder in recorders { performer.perform(get("http://x")) { recorder.record($0) } }
        for call in spy.pending { call.respond(.status(401)) }

        // When the refresh fails
        refresh.finish(.failure(RefreshFailed()))

        // Then all three fail with that error (wrapped, naming the handler), and nothing was resent
        #expect(
            recorders.allSatisfy { recorder in
                if case .failure(let error)? = recorder.single { return error.thrown(as: RefreshFailed.self) != nil }
                return false
            })
        #expect(spy.calls.count == 3)
    }

    @Test func aSecond401IsDeliveredWithoutLooping() {
        // Given a server that always answers 401 and a refresh that succeeds
        let spy = SpyPerformer(match: { _ in .status(401) })
        let refreshes = Recorder<Int>()
        let performer = spy.refreshing(
            with: RefreshTokenHandler { done in
                refreshes.record(1)
                done(.success(()))
            })

        // When a call is made
        let result = performNow(performer, get("http://x"))

        // Then it was refreshed once, resent once, and the second 401 delivered
        #expect(outcome(result) == "401")
        #expect(refreshes.count == 1)
        #expect(spy.calls.count == 2)
    }

    @Test func theResentRequestCarriesTheNewStateThroughTheEnhancers() throws {
        // Given a bearer token enhancer below the refresh layer and a refresh that changes the token
        let store = TokenStore("old")
        let spy = SpyPerformer([.status(401), .status(200)])
        let performer = spy.enhanced(by: BearerToken(store)).refreshing(
            with: RefreshTokenHandler { done in
                store.token = "new"
                done(.success(()))
            })

        // When a call is made
        let result = performNow(performer, get("http://x"))

        // Then the resend carried the new token
        #expect(outcome(result) == "200")
        let sent = spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Authorization") }
        #expect(sent == ["Bearer old", "Bearer new"])
    }

    @Test func theStoreInitializerStoresTheNewToken() async throws {
        // Given an async refresh that returns a new token for the store
        let store = TokenStore("old")
        let spy = SpyPerformer([.status(401), .status(200)])
        let performer = spy.enhanced(by: BearerToken(store)).refreshing(with: RefreshTokenHandler(store) { "fresh" })

        // When a call is awaited
        let response = try await performer.response(for: get("http://x"))

        // Then the token was stored and the resend carried it
        #expect(response.status == 200)
        #expect(store.token == "fresh")
        #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Authorization") == "Bearer fresh")
    }

    @Test func otherFailuresAreDeliveredUntouched() {
        // Given a 403 and a timeout, neither of which the handler recognizes
        let refresh = HeldRefresh()
        let performer = SpyPerformer([.status(403), .failure(.timedOut)]).refreshing(with: refresh.handler)

        // When two calls are made
        let forbidden = performNow(performer, get("http://x"))
        let slow = performNow(performer, get("http://x"))

        // Then both are delivered as they came, with no refresh
        #expect(outcome(forbidden) == "403")
        #expect(outcome(slow) == "timedOut")
        #expect(refresh.runs == 0)
    }

    @Test func cancellingAWaitingCallLeavesTheRefreshToTheOthers() {
        // Given two calls waiting on a refresh
        let spy = SpyPerformer([.hold, .hold], match: { _ in .status(200) })
        let refresh = HeldRefresh()
        let performer = spy.refreshing(with: refresh.handler)
        let cancelled = Recorder<Result<Response, any Error>>()
        let waiting = Recorder<Result<Response, any Error>>()
        let handle = performer.perform(get("http://x")) { cancelled.record($0) }
        performer.perform(get("http://x")) { waiting.record($0) }
        for call in spy.pending { call.respond(.status(401)) }

        // When the first is cancelled, then the refresh succeeds
        handle.cancel()
        refresh.finish(.success(()))

        // Then the first got one cancellation and was not resent; the second succeeded
        #expect(outcome(cancelled.single) == "cancelled")
        #expect(outcome(waiting.single) == "200")
        #expect(spy.calls.count == 3)
    }

    @Test func cancellingTheResendCancelsIt() {
        // Given a call whose resend is held
        let spy = SpyPerformer([.status(401), .hold])
        let recorder = Recorder<Result<Response, any Error>>()
        let handle = spy.refreshing(with: RefreshTokenHandler { $0(.success(())) }).perform(get("http://x")) {
            recorder.record($0)
        }
        #expect(spy.pending.count == 1)

        // When the caller cancels
        handle.cancel()

        // Then the resend was cancelled and the caller got one cancellation
        #expect(spy.pending.isEmpty)
        #expect(outcome(recorder.single) == "cancelled")
    }

    @Test func callbackAndAsyncCallersSeeTheSame() async {
        // Given identical stacks: 401, then a refresh, then 200
        func stack() -> LayeredPerformer {
            SpyPerformer([.status(401), .status(200)]).refreshing(with: RefreshTokenHandler { $0(.success(())) })
        }

        // When one is called with a callback and one with async/await
        let callback = outcome(performNow(stack(), get("http://x")))
        let async = await asyncOutcome(stack(), get("http://x"))

        // Then both get the 200
        #expect(callback == "200")
        #expect(async == callback)
    }

    @Test func a401DeliveredAsAnErrorByAVerifierStartsTheRefresh() {
        // Given a status verifier below the refresh layer, so a 401 arrives as a FetchError
        let store = TokenStore("old")
        let spy = SpyPerformer([.status(401), .status(200)])
        let refreshes = Recorder<Int>()
        let performer = spy.enhanced(by: BearerToken(store), StatusVerifier(200..<300))
            .refreshing(
                with: RefreshTokenHandler { done in
                    refreshes.record(1)
                    store.token = "new"
                    done(.success(()))
                })

        // When a call is made
        let result = performNow(performer, get("http://x"))

        // Then the error's 401 started one refresh and the resend with the new token succeeded
        #expect(outcome(result) == "200")
        #expect(refreshes.count == 1)
        #expect(spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Authorization") } == ["Bearer old", "Bearer new"])
    }

    @Test func anErrorWithoutAMatchingStatusStartsNoRefresh() {
        // Given a verifier turning a 403 into an error, and a handler for 401
        let refresh = HeldRefresh()
        let performer = SpyPerformer([.status(403)]).enhanced(by: StatusVerifier(200..<300))
            .refreshing(with: refresh.handler)

        // When a call is made
        let error = fetchError(performNow(performer, get("http://x")))

        // Then the 403 error is delivered and nothing was refreshed
        #expect(error?.status == 403)
        #expect(refresh.runs == 0)
    }
}
