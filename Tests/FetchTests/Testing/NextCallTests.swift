import Foundation
import Testing
import Fetch
import FetchTesting

/// `spy.nextCall()`: awaiting a call that is sent from a `Task`, with a timeout that fails
/// the test rather than hanging.
@Suite struct NextCallTests {
    @Test func aCallSentFromATaskIsAwaitedAndAnswered() async throws {
        // Given a held call under an async enhancer, which sends it after `perform` returns
        let spy = SpyPerformer([.hold])
        let api = spy.enhanced(by: ActorBearer(tokens: TokenActor("abc")))
        let results = Recorder<Result<Response, any Error>>()
        // (from a Task of high priority, whose priority the enhancer's Task takes: one of
        // default priority waits behind every test the run queues on the concurrency pool)
        Task(priority: .high) { api.perform(get("https://api.example.com/me")) { results.record($0) } }

        // When the test awaits the call and answers it
        let call = try await spy.nextCall()
        call.respond(.json(raw: #"{"id":7}"#))

        // Then the call carried the actor's token and completed with the answer
        #expect(call.urlRequest?.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
        let response = try #require(results.single).get()
        #expect(response.status == 200)
        #expect(response.body == Data(#"{"id":7}"#.utf8))
        #expect(response.mediaType == "application/json")
    }

    @Test func callsAreHandedOutOnceEachInOrder() async throws {
        // Given two calls that arrived already, one answered and one held
        let spy = SpyPerformer([.status(204), .hold])
        spy.perform(get("https://x/1")) { _ in }
        spy.perform(get("https://x/2")) { _ in }

        // When the test asks for calls twice
        let first = try await spy.nextCall()
        let second = try await spy.nextCall()

        // Then it gets each once, in order, the answered one already finished
        #expect(first.request.url.path == "/1")
        #expect(first.isFinished)
        #expect(second.request.url.path == "/2")
        #expect(!second.isFinished)
    }

    @Test func aCallSentWhileAnotherIsAnsweredIsHandedOutAfterIt() async throws {
        // Given a call whose answer's completion sends the next call, as a refresh's resend does
        let spy = SpyPerformer([.status(401), .hold])
        spy.perform(get("https://x/first")) { _ in spy.perform(get("https://x/resend")) { _ in } }

        // When the test asks for calls twice
        let first = try await spy.nextCall()
        let second = try await spy.nextCall()

        // Then it gets them in the order they reached the spy: the first, answered, then the resend
        #expect(first.request.url.path == "/first")
        #expect(first.isFinished)
        #expect(second.request.url.path == "/resend")
        #expect(!second.isFinished)
    }

    @Test func aWaiterGetsTheCallWhoseAnswerSentTheNextBeforeThatNext() async throws {
        // Given a test already waiting for a call (its timeout on a clock that never moves)
        let spy = SpyPerformer([.status(401), .hold])
        let clock = ManualScheduler()
        let first = Task { try await spy.nextCall(scheduler: clock) }
        await untilWaiting(on: clock, count: 1)

        // When a call arrives whose answer's completion sends the next, as a refresh's resend does
        spy.perform(get("https://x/first")) { _ in spy.perform(get("https://x/resend")) { _ in } }
        let second = try await spy.nextCall(scheduler: clock)

        // Then the waiter got the first call, and the resend came next
        #expect(try await first.value.request.url.path == "/first")
        #expect(second.request.url.path == "/resend")
        #expect(clock.pendingCount == 0)
    }

    @Test func aWaitThatEndsWhileACallIsAnsweredLeavesThatCallForTheNextWait() async throws {
        // Given a test waiting for a call, its timeout on a manual clock
        let spy = SpyPerformer([.status(200)])
        let clock = ManualScheduler()
        let waiting = Task { try await spy.nextCall(timeout: .seconds(5), scheduler: clock) }
        await untilWaiting(on: clock, count: 1)

        // When the timeout passes while the call that arrived is still being answered
        spy.perform(get("https://x/slow-answer")) { _ in clock.advance(by: .seconds(5)) }

        // Then the wait fails, and the call goes to the next wait
        await #expect(throws: SpyPerformer.NoCallArrived.self) { try await waiting.value }
        #expect(try await spy.nextCall(scheduler: clock).request.url.path == "/slow-answer")
    }

    @Test func callsSentFromManyThreadsAreHandedOutInTheOrderTheyArrived() async throws {
        // Given 4 threads sending 50 calls each, every other one answered and sending a resend
        // from its completion, the others held (threads of their own: the concurrency pool
        // starts a detached Task only after the tests queued on it, on 2 busy cores)
        let spy = SpyPerformer(match: { $0.url.path.hasPrefix("/held") ? .hold : .status(200) })
        for thread in 0..<4 {
            Thread.detachNewThread {
                for index in 0..<50 {
                    guard index.isMultiple(of: 2) else {
                        spy.perform(get("https://x/held/\(thread)/\(index)")) { _ in }
                        continue
                    }
                    spy.perform(get("https://x/answered/\(thread)/\(index)")) { _ in
                        spy.perform(get("https://x/held/\(thread)/\(index)/resend")) { _ in }
                    }
                }
            }
        }

        // When the test takes every call, one after another, while they arrive
        var paths: [String] = []
        for _ in 0..<300 { paths.append(try await spy.nextCall().request.url.path) }

        // Then it got each call once, in the order the spy recorded them
        #expect(paths == spy.requests.map(\.url.path))
        #expect(Set(paths).count == 300)
    }

    @Test func noCallFailsAfterTheTimeoutRatherThanHanging() async throws {
        // Given a spy that receives no call, and a timeout on a clock that runs at once
        let spy = SpyPerformer()
        spy.perform(get("https://x/earlier")) { _ in }
        _ = try await spy.nextCall()

        // When the test awaits a call
        let error = await #expect(throws: SpyPerformer.NoCallArrived.self) {
            try await spy.nextCall(timeout: .seconds(3), scheduler: ImmediateScheduler())
        }

        // Then it fails, saying how long it waited and how many calls came before
        #expect(error?.description == "no call reached the spy within 3.0 seconds (1 call(s) before)")
    }

    @Test func cancellingTheWaitingTaskEndsTheWait() async throws {
        // Given a test waiting for a call that never comes, on a clock that never moves
        let spy = SpyPerformer()
        let clock = ManualScheduler()
        let waiting = Task { try await spy.nextCall(scheduler: clock) }

        // When its Task is cancelled
        waiting.cancel()

        // Then the wait ends with CancellationError
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func aLateCallAfterATimeoutGoesToTheNextWaiter() async throws {
        // Given a wait that timed out
        let spy = SpyPerformer([.hold])
        _ = try? await spy.nextCall(timeout: .zero, scheduler: ImmediateScheduler())

        // When a call arrives and the test waits again
        spy.perform(get("https://x/late")) { _ in }
        let call = try await spy.nextCall()

        // Then it gets that call
        #expect(call.request.url.path == "/late")
    }

    @Test func responseHelpersExistForHeldCalls() throws {
        // Given a held call
        let spy = SpyPerformer([.hold, .hold, .hold])
        let results = Recorder<Result<Response, any Error>>()
        for path in ["a", "b", "c"] { spy.perform(get("https://x/\(path)")) { results.record($0) } }
        let calls = spy.pending

        // When each is answered with a helper
        calls[0].respond(try .json(["id": 7]))
        calls[1].respond(.status(404, body: "missing"))
        calls[2].respond(.text("hi"))

        // Then each completed with what the helper made
        let statuses = try results.all.map { try $0.get().status }
        #expect(statuses == [200, 404, 200])
    }
}

/// Returns once `count` waits have scheduled their timeout on `clock`: each does so when it
/// starts waiting for a call that has not arrived. Gives up, failing the test, after 10 s.
private func untilWaiting(on clock: ManualScheduler, count: Int) async {
    let end = ContinuousClock.now + .seconds(10)
    while clock.pendingCount < count {
        guard ContinuousClock.now < end else {
            Issue.record("\(count) wait(s) never started")
            return
        }
        await Task.yield()
    }
}
