import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

struct SpyPerformerTests {
    @Test func answersAreUsedInOrderAndRequestsRecorded() throws {
        // Given a spy with three scripted answers
        let spy = SpyPerformer([.status(201), .failure(.notConnected), .text("third")])
        let results = Captured<Result<Response, any Error>>()
        // When three requests are performed
        for id in 1...3 { spy.perform(GetAccount(id: id) as any Request) { results.record($0) } }
        // Then each got the next answer, and the calls are recorded in order
        let all = results.all
        #expect(all.count == 3)
        #expect(try all[0].get().status == 201)
        #expect((all[1].failureError as? FetchError)?.code == .notConnected)
        #expect(try all[2].get().body == Data("third".utf8))
        #expect(spy.requests.map(\.url.path) == ["/accounts/1", "/accounts/2", "/accounts/3"])
        #expect(spy.calls.count == 3)
    }

    @Test func theAnswerCarriesTheCallsRequest() throws {
        // Given a scripted response made without a request
        let spy = SpyPerformer([.status(200)])
        let results = Captured<Result<Response, any Error>>()
        // When a POST is performed
        let request = BasicRequest(url: exampleURL("/items"), method: .post, body: .text("x"))
        spy.perform(request) { results.record($0) }
        // Then the response names that request and the URLRequest it became
        let response = try #require(try results.only?.get())
        #expect(response.request.url == exampleURL("/items"))
        #expect(response.urlRequest.httpMethod == "POST")
        #expect(response.url == exampleURL("/items"))
    }

    @Test func urlRequestsAreRecordedAsBuilt() throws {
        // Given a spy that answers everything
        let spy = SpyPerformer(match: { _ in .status(204) })
        // When a request with query items and a JSON body is performed
        spy.perform(
            BasicRequest(
                url: exampleURL("/s"), method: .put, headers: ["X-Id": "1"],
                queryItems: [URLQueryItem(name: "q", value: "a+b")],
                body: .json(Account(id: 1, name: "Ada")))
        ) { _ in }
        // Then the recorded URLRequest is what a transport would send
        let sent = try #require(spy.urlRequests.first ?? nil)
        #expect(sent.url?.absoluteString == "https://api.example.com/s?q=a%2Bb")
        #expect(sent.httpMethod == "PUT")
        #expect(sent.value(forHTTPHeaderField: "X-Id") == "1")
        #expect(sent.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(try JSONDecoder().decode(Account.self, from: #require(sent.httpBody)) == Account(id: 1, name: "Ada"))
    }

    @Test func aRequestThatFailsToBuildFailsAndIsRecordedWithoutAURLRequest() {
        // Given a spy that would answer, and a request whose body cannot be encoded
        let spy = SpyPerformer([.status(200)])
        let results = Captured<Result<Response, any Error>>()
        // When it is performed
        spy.perform(BasicRequest(url: exampleURL("/x"), method: .post, body: .json(Unencodable()))) {
            results.record($0)
        }
        // Then the call fails with encoding and is recorded without a URLRequest
        let error = #expect(throws: FetchError.self) { try results.only?.get() }
        #expect(error?.code == .encoding)
        #expect(spy.calls.count == 1)
        #expect(spy.urlRequests.first.map { $0 == nil } == true)
    }

    @Test func theMatcherAnswersOnceTheScriptIsUsedUp() throws {
        // Given one scripted answer and a matcher by path
        let spy = SpyPerformer([.status(202)]) { request in
            request.url.path == "/accounts/7" ? .status(200) : .status(404)
        }
        let results = Captured<Result<Response, any Error>>()
        // When three calls are made
        spy.perform(GetAccount(id: 1) as any Request) { results.record($0) }
        spy.perform(GetAccount(id: 7) as any Request) { results.record($0) }
        spy.perform(GetAccount(id: 8) as any Request) { results.record($0) }
        // Then the script answers first, then the matcher by request
        #expect(try results.all.map { try $0.get().status } == [202, 200, 404])
    }

    @Test func enqueueAddsAnswersAtTheEnd() throws {
        // Given a spy with one answer and one enqueued later
        let spy = SpyPerformer([.status(200)])
        spy.enqueue(.status(201), .status(202))
        let results = Captured<Result<Response, any Error>>()
        // When three calls are made
        for _ in 0..<3 { spy.perform(GetAccount(id: 1) as any Request) { results.record($0) } }
        // Then all three answers were used in order
        #expect(try results.all.map { try $0.get().status } == [200, 201, 202])
    }

    @Test func anUnansweredCallFailsNamingTheRequest() {
        // Given a spy with nothing to say
        let spy = SpyPerformer()
        let results = Captured<Result<Response, any Error>>()
        // When it is called
        spy.perform(BasicRequest(url: exampleURL("/nobody"), method: .delete)) { results.record($0) }
        // Then it fails with Unanswered naming the call
        let error = #expect(throws: SpyPerformer.Unanswered.self) { try results.only?.get() }
        #expect(error?.description == "SpyPerformer has no answer for DELETE https://api.example.com/nobody")
    }

    @Test func aHeldCallCompletesWhenTheTestSays() throws {
        // Given a call the spy holds
        let spy = SpyPerformer([.hold])
        let results = Captured<Result<Account, any Error>>()
        spy.perform(GetAccount(id: 7)) { results.record($0) }
        #expect(results.count == 0)
        let call = try #require(spy.pending.first)
        #expect(call.request.url == GetAccount(id: 7).url)
        #expect(call.urlRequest?.url == GetAccount(id: 7).url)
        // When the test answers it, twice
        call.respond(try Response.json(Account(id: 7, name: "Ada")))
        call.fail(FetchError(.timedOut, reason: "late"))
        // Then only the first answer counts, and nothing is pending any more
        #expect(try results.only?.get() == Account(id: 7, name: "Ada"))
        #expect(call.isFinished)
        #expect(!call.isCancelled)
        #expect(spy.pending.isEmpty)
    }

    @Test func aHeldCallCanFail() throws {
        // Given a held call
        let spy = SpyPerformer([.hold])
        let results = Captured<Result<Response, any Error>>()
        spy.perform(GetAccount(id: 7) as any Request) { results.record($0) }
        // When the test fails it
        try #require(spy.pending.first).fail(FetchError(.connectionLost, reason: "reset"))
        // Then the caller gets the error
        let error = #expect(throws: FetchError.self) { try results.only?.get() }
        #expect(error?.code == .connectionLost)
    }

    @Test func cancellingAHeldCallCompletesItWithCancelled() throws {
        // Given a held call
        let spy = SpyPerformer([.hold])
        let results = Captured<Result<Response, any Error>>()
        let handle = spy.perform(GetAccount(id: 7) as any Request) { results.record($0) }
        // When the caller cancels it twice, then the test tries to answer
        handle.cancel()
        handle.cancel()
        try #require(handle as? PendingCall).respond(.status(200))
        // Then the completion ran once, with cancelled naming the request
        let error = #expect(throws: FetchError.self) { try results.only?.get() }
        #expect(error?.code == .cancelled)
        #expect(error?.url == GetAccount(id: 7).url)
        #expect((handle as? PendingCall)?.isCancelled == true)
        #expect(spy.pending.isEmpty)
    }

    @Test func cancellingAnAnsweredCallDoesNothing() throws {
        // Given a call already answered
        let spy = SpyPerformer([.status(200)])
        let results = Captured<Result<Response, any Error>>()
        let handle = spy.perform(GetAccount(id: 1) as any Request) { results.record($0) }
        // When it is cancelled
        handle.cancel()
        // Then the completion ran only once, with the answer, and the call does not count as cancelled
        #expect(results.count == 1)
        #expect(try results.only?.get().status == 200)
        let call = try #require(handle as? PendingCall)
        #expect(call.isFinished)
        #expect(!call.isCancelled)
    }
}

extension Result {
    /// The error of a failure, `nil` for a success.
    var failureError: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
