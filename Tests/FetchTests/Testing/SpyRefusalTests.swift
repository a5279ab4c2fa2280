import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

/// The spy refuses what `Session` refuses before sending, with the same error, so a test
/// over a spy cannot pass with a request the real transport would never send.
struct SpyRefusalTests {
    /// Requests a `Session` refuses before sending anything (so comparing with one needs no server).
    enum Refused: String, CaseIterable, Sendable {
        case getWithABody, headWithABody, methodThatIsNotAToken, contentLengthHeader, contentLengthSetInAdjust,
            ftpURL, relativeURL, adjustThatThrows, getWithAFileBody

        private static let url = URL(string: "http://127.0.0.1:9/items")!

        var request: any Request {
            switch self {
            case .getWithABody: BasicRequest(url: Self.url, body: .text("a GET with a body"))
            case .headWithABody: BasicRequest(url: Self.url, method: .head, body: .json(["a": 1]))
            case .methodThatIsNotAToken: BasicRequest(url: Self.url, method: "BAD METHOD")
            case .contentLengthHeader: BasicRequest(url: Self.url, method: .post, headers: ["Content-Length": "1"])
            case .contentLengthSetInAdjust: SettingContentLength()
            case .ftpURL: BasicRequest(url: URL(string: "ftp://127.0.0.1:9/file")!)
            case .relativeURL: BasicRequest(url: URL(string: "items")!)
            case .adjustThatThrows: Unsigned()
            case .getWithAFileBody: BasicRequest(url: Self.url, body: .file(URL(fileURLWithPath: "/dev/null")))
            }
        }
    }

    private struct Unsigned: Request {
        struct NoKey: Error {}
        var url: URL { URL(string: "http://127.0.0.1:9/items")! }
        func adjust(_ urlRequest: inout URLRequest) throws { throw NoKey() }
    }

    @Test(arguments: Refused.allCases)
    func theSpyRefusesWhatSessionRefusesWithTheSameError(refused: Refused) async throws {
        // Given a spy that would answer anything, and a request Session refuses
        let spy = SpyPerformer(match: { _ in .status(200) })
        let request = refused.request
        let sessionError = await #expect(throws: FetchError.self) { try await Session().response(for: request) }
        // When the spy performs it
        let results = Captured<Result<Response, any Error>>()
        spy.perform(request) { results.record($0) }
        // Then it fails at once with Session's error, naming the method and URL
        let error = #expect(throws: FetchError.self) { try results.only?.get() }
        #expect(error?.code == .invalidRequest)
        #expect(error?.code == sessionError?.code)
        #expect(error?.description == sessionError?.description)
        #expect(error?.method != nil)
        #expect(error?.url != nil)
    }

    @Test func aRefusedCallIsRecordedButUsesNoAnswer() throws {
        // Given a spy with one scripted answer and a matcher that counts what it is asked
        let asked = Captured<String>()
        let spy = SpyPerformer([.status(201)]) { request in
            asked.record(request.url.path)
            return .status(202)
        }
        let results = Captured<Result<Response, any Error>>()
        // When a GET with a body is performed, then a valid GET
        spy.perform(BasicRequest(url: exampleURL("/refused"), body: .text("x"))) { results.record($0) }
        spy.perform(BasicRequest(url: exampleURL("/ok"))) { results.record($0) }
        // Then both calls are recorded, the refused one without a URLRequest, the scripted
        // answer went to the valid call, and the matcher was never asked
        let all = results.all
        #expect(all.count == 2)
        let error = #expect(throws: FetchError.self) { try all[0].get() }
        #expect(error?.description == "GET https://api.example.com/refused: a GET request cannot have a body")
        #expect(try all[1].get().status == 201)
        #expect(spy.requests.map(\.url.path) == ["/refused", "/ok"])
        #expect(spy.urlRequests.map { $0 == nil } == [true, false])
        #expect(asked.all.isEmpty)
    }

    @Test func aScriptedFetchErrorNamesTheCall() {
        // Given a spy scripted to fail, as scripted failures are made: without a request
        let spy = SpyPerformer([.failure(.timedOut)])
        let results = Captured<Result<Response, any Error>>()
        // When a DELETE is performed
        spy.perform(BasicRequest(url: exampleURL("/items/3"), method: .delete)) { results.record($0) }
        // Then the error names the method and URL, as Session's errors do
        let error = #expect(throws: FetchError.self) { try results.only?.get() }
        #expect(error?.method == .delete)
        #expect(error?.description == "DELETE https://api.example.com/items/3: scripted failure")
    }

    @Test func aHeldCallFailedByTheTestNamesTheCallUnlessTheErrorNamesOne() throws {
        // Given two held calls
        let spy = SpyPerformer([.hold, .hold])
        let results = Captured<Result<Response, any Error>>()
        spy.perform(BasicRequest(url: exampleURL("/a"), method: .put)) { results.record($0) }
        spy.perform(BasicRequest(url: exampleURL("/b"))) { results.record($0) }
        let calls = spy.pending
        #expect(calls.count == 2)
        // When the test fails one with a bare error and one with an error naming another URL
        try #require(calls.first).fail(FetchError(.connectionLost, reason: "reset"))
        try #require(calls.last).fail(FetchError(.connectionLost, reason: "reset", url: exampleURL("/elsewhere")))
        // Then the bare one names its call, and the other keeps its URL
        let errors = results.all.map { $0.failureError as? FetchError }
        #expect(
            errors.map { $0?.description } == [
                "PUT https://api.example.com/a: reset",
                "GET https://api.example.com/elsewhere: reset",
            ])
    }
}
