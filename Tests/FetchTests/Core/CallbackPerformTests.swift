import Foundation
import Testing
import Fetch
import FetchTesting

struct CallbackPerformTests {
    @Test func aCallbackCallOverTheSpyHasItsResultBeforePerformReturns() throws {
        // Given a spy with one scripted answer
        let spy = SpyPerformer([try .json(Account(id: 7, name: "Ada"))])
        let result = Captured<Result<Account, any Error>>()
        // When a typed request is performed with a callback
        spy.perform(GetAccount(id: 7)) { result.record($0) }
        // Then the result is already there, on the next line
        #expect(try result.only?.get() == Account(id: 7, name: "Ada"))
    }

    @Test func theRawCallDeliversTheResponseWhateverItsStatus() throws {
        // Given a spy answering 500
        let spy = SpyPerformer([.status(500, body: "oops")])
        let result = Captured<Result<Response, any Error>>()
        // When the one requirement is called
        spy.perform(GetAccount(id: 1) as any Request) { result.record($0) }
        // Then the 500 is a success at this level, with its body
        let response = try #require(try result.only?.get())
        #expect(response.status == 500)
        #expect(response.body == Data("oops".utf8))
    }

    @Test func parsingIntoAnyParsable() throws {
        // Given a spy answering with text
        let spy = SpyPerformer([.text("pong")])
        let result = Captured<Result<String, any Error>>()
        // When performed as String
        spy.perform(BasicRequest(url: exampleURL("/ping")), as: String.self) { result.record($0) }
        // Then the text arrives
        #expect(try result.only?.get() == "pong")
    }

    @Test func aParseFailureArrivesAsTheError() {
        // Given a spy answering with a body that is not an Account
        let spy = SpyPerformer([.text("not json")])
        let result = Captured<Result<Account, any Error>>()
        // When performed as Account
        spy.perform(GetAccount(id: 7)) { result.record($0) }
        // Then decoding failed, and the completion ran once
        let error = #expect(throws: FetchError.self) { try result.only?.get() }
        #expect(error?.code == .decoding)
        #expect(result.count == 1)
    }

    @Test func aTransportErrorArrivesUnchanged() {
        // Given a spy failing with a timeout
        let spy = SpyPerformer([.failure(.timedOut)])
        let result = Captured<Result<Account, any Error>>()
        // When performed
        spy.perform(GetAccount(id: 7)) { result.record($0) }
        // Then the timeout arrives
        let error = #expect(throws: FetchError.self) { try result.only?.get() }
        #expect(error?.code == .timedOut)
    }

    @Test func decodingWithAConfiguredDecoder() throws {
        // Given a snake_case body and a model that is Decodable but not Parsable
        struct Profile: Decodable, Sendable { let displayName: String }
        let spy = SpyPerformer([.text(#"{"display_name":"Ada"}"#), .status(404, body: #"{"message":"gone"}"#)])
        let profile = Captured<Result<Profile, any Error>>()
        let missing = Captured<Result<Profile, any Error>>()
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        // When decoded with the decoder, the second time with an error parser
        spy.perform(BasicRequest(url: exampleURL("/me")), decoding: Profile.self, using: decoder) { profile.record($0) }
        spy.perform(
            BasicRequest(url: exampleURL("/me")), decoding: Profile.self, using: decoder,
            errorParser: APIError.self
        ) { missing.record($0) }
        // Then the decoder was used, and the error parser turned the 404 into the API's error
        #expect(try profile.only?.get().displayName == "Ada")
        #expect(throws: APIError(message: "gone")) { try missing.only?.get() }
    }
}
