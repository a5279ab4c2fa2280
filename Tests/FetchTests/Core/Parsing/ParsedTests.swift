import Foundation
import Testing
import Fetch
import FetchTesting

@Suite struct ParsedTests {
    @Test func aTypedCallCanReturnTheModelWithItsResponse() async throws {
        // Given a spy answering an account with an ETag, twice
        let answer = SpyPerformer.Answer.json(raw: #"{"id": 7, "name": "Ada"}"#, status: 203, headers: ["ETag": "v1"])
        let spy = SpyPerformer([answer, answer])

        // When the typed request is performed for the model and its response, async and with a callback
        let parsed = try await spy.parsed(GetAccount(id: 7))
        let captured = Captured<Result<Parsed<Account>, any Error>>()
        spy.parsed(GetAccount(id: 7)) { captured.record($0) }

        // Then both carry the model, the status and the headers
        #expect(parsed.value == Account(id: 7, name: "Ada"))
        #expect(parsed.status == 203)
        #expect(parsed.headers["etag"] == "v1")
        #expect(parsed.response.request is GetAccount)
        #expect(try captured.only?.get().value == Account(id: 7, name: "Ada"))
        #expect(try captured.only?.get().response.headers["ETag"] == "v1")
    }

    @Test func aParseFailureStillThrowsTheParsersError() async throws {
        // Given a 404
        let spy = SpyPerformer([.status(404)])

        // When it is asked for as a model with its response
        let error = await #expect(throws: FetchError.self) {
            try await spy.parsed(BasicRequest(url: exampleURL()), as: Account.self)
        }

        // Then the status error comes through
        #expect(error?.code == .httpStatus)
        #expect(error?.status == 404)
    }
}
