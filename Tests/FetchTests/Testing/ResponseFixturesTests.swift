import Foundation
import Testing
import Fetch
import FetchTesting

struct ResponseFixturesTests {
    @Test func jsonFixtureEncodesTheValueWithAContentType() throws {
        // Given a JSON fixture with an extra header
        let response = try Response.json(Account(id: 7, name: "Ada"), status: 201, headers: ["ETag": "v1"])
        // When read
        // Then it holds the value, the status and both headers
        #expect(response.status == 201)
        #expect(response.mediaType == "application/json")
        #expect(response.headers["etag"] == "v1")
        #expect(try Account.parse(from: response) == Account(id: 7, name: "Ada"))
    }

    @Test func jsonFixtureKeepsAContentTypeGiven() throws {
        // Given a JSON fixture with its own Content-Type
        let response = try Response.json(
            Account(id: 1, name: "A"), headers: ["content-type": "application/problem+json"])
        // When read
        // Then that type is the only one
        #expect(response.headers.values(for: "Content-Type") == ["application/problem+json"])
    }

    @Test func jsonFixtureOfAnUnencodableValueThrows() {
        // Given a value that cannot be encoded
        // When a fixture is made
        // Then the encoder's error comes through
        #expect(throws: Unencodable.Refused.self) { try Response.json(Unencodable()) }
    }

    @Test func statusAndTextFixtures() throws {
        // Given a status fixture and a text fixture
        let status = Response.status(418, body: "teapot", headers: ["X": "1"])
        let text = Response.text("héllo", status: 202)
        // When read
        // Then they hold what was given
        #expect(status.status == 418)
        #expect(status.body == Data("teapot".utf8))
        #expect(status.headers["x"] == "1")
        #expect(text.status == 202)
        #expect(text.charset == "utf-8")
        #expect(try String.parse(from: text) == "héllo")
    }

    @Test func failureAnswerMakesAFetchErrorOfTheCode() {
        // Given a spy scripted to fail with a code
        let spy = SpyPerformer([.failure(.hostNotFound, reason: "no such host")])
        let results = Captured<Result<Response, any Error>>()
        // When called
        spy.perform(GetAccount(id: 1) as any Request) { results.record($0) }
        // Then it fails with that code and reason
        let error = #expect(throws: FetchError.self) { try results.only?.get() }
        #expect(error?.code == .hostNotFound)
        #expect(error?.reason == "no such host")
    }
}
