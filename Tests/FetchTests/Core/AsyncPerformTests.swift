import Foundation
import Testing
import Fetch
import FetchTesting
import TestSupport

struct AsyncPerformTests {
    @Test func aTypedRequestNeedsNoAnnotation() async throws {
        // Given a spy with a user
        let spy = SpyPerformer([try .json(Account(id: 7, name: "Ada"))])
        // When a typed request is awaited with no type written anywhere
        let user = try await spy.perform(GetAccount(id: 7))
        // Then the result is the request's Output
        #expect(user == Account(id: 7, name: "Ada"))
    }

    @Test func responseForReturnsAnyStatus() async throws {
        // Given a spy answering 404
        let spy = SpyPerformer([.status(404)])
        // When the raw response is awaited
        let response = try await spy.response(for: GetAccount(id: 9))
        // Then it is returned, not thrown, with the call's URL
        #expect(response.status == 404)
        #expect(response.url == GetAccount(id: 9).url)
    }

    @Test func performAsParsesIntoTheGivenType() async throws {
        // Given a spy answering with an array
        let spy = SpyPerformer([try .json([Account(id: 1, name: "Ada")])])
        // When awaited as an array of users
        let users = try await spy.perform(BasicRequest(url: exampleURL("/accounts")), as: [Account].self)
        // Then it is parsed
        #expect(users == [Account(id: 1, name: "Ada")])
    }

    @Test func decodingWithAConfiguredDecoder() async throws {
        // Given a body with an ISO 8601 date
        struct Event: Decodable { let at: Date }
        let spy = SpyPerformer([.text(#"{"at":"2024-05-01T12:00:00Z"}"#)])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        // When decoded with that decoder
        let event = try await spy.perform(BasicRequest(url: exampleURL("/e")), decoding: Event.self, using: decoder)
        // Then the date is read
        #expect(event.at == Date(timeIntervalSince1970: 1_714_564_800))
    }

    @Test func cancellingTheTaskCancelsTheCallAndThrowsCancelled() async throws {
        // Given a spy that holds the call open, and a task awaiting it
        let (api, started) = StartedSignal.over(SpyPerformer([.hold]))
        let task = Task { try await api.perform(GetAccount(id: 7)) }
        let call = try #require(
            try await started.next(within: standardBound, "the call reaching the spy") as? PendingCall)
        // When the task is cancelled while the call is in flight
        task.cancel()
        let result = try await within("the cancelled task") { await task.result }
        // Then the held call was cancelled and the task threw one clear cancellation error
        #expect(call.isCancelled)
        #expect(call.isFinished)
        let error = #expect(throws: FetchError.self) { try result.get() }
        #expect(error?.code == .cancelled)
        #expect(error?.url == GetAccount(id: 7).url)
        #expect(api.spy.pending.isEmpty)
    }

    @Test func aTaskCancelledBeforeTheCallNeverStartsIt() async throws {
        // Given a spy and a task that is cancelled before it calls
        let spy = SpyPerformer([.status(200)])
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var iterator = gate.makeAsyncIterator()
            await iterator.next()
            return try await spy.response(for: GetAccount(id: 7))
        }
        task.cancel()
        open.yield()
        // When the task goes on to call
        let result = try await within("the cancelled task") { await task.result }
        // Then it throws cancelled and the spy saw nothing
        let error = #expect(throws: FetchError.self) { try result.get() }
        #expect(error?.code == .cancelled)
        #expect(spy.calls.isEmpty)
    }

    @Test func aHeldCallCompletedLaterResumesTheTask() async throws {
        // Given a call held open while a task awaits it
        let (api, started) = StartedSignal.over(SpyPerformer([.hold]))
        let task = Task { try await api.perform(GetAccount(id: 7)) }
        _ = try await started.next(within: standardBound, "the call reaching the spy")
        // When the test answers it
        let call = try #require(api.spy.pending.first)
        call.respond(try .json(Account(id: 7, name: "Ada")))
        // Then the task returns the model
        #expect(try await task.value(within: standardBound) == Account(id: 7, name: "Ada"))
        #expect(api.spy.pending.isEmpty)
    }
}
