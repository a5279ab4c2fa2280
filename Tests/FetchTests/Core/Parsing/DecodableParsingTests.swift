import Foundation
import Testing
import Fetch

struct DecodableParsingTests {
    private struct Team: Decodable, Parsable {
        struct Member: Decodable {
            let id: Int
            let name: String
        }
        let members: [Member]
    }

    @Test(arguments: [200, 201, 299])
    func anyTwoHundredDecodes(status: Int) throws {
        // Given a 2xx JSON response
        let response = jsonResponse(#"{"id":7,"name":"Ada"}"#, status: status)
        // When parsed as a Decodable model
        let user = try Account.parse(from: response)
        // Then the model is decoded
        #expect(user == Account(id: 7, name: "Ada"))
    }

    @Test func aNonTwoHundredIsAnHTTPStatusErrorCarryingTheResponse() {
        // Given a 404 whose body would decode
        let response = jsonResponse(#"{"id":7,"name":"Ada"}"#, status: 404)
        // When parsed
        // Then it fails with httpStatus carrying the response, without decoding
        let error = #expect(throws: FetchError.self) { try Account.parse(from: response) }
        #expect(error?.code == .httpStatus)
        #expect(error?.status == 404)
        #expect(error?.response?.body == response.body)
    }

    @Test func anEmptyBodyIsADecodingErrorThatSaysSo() {
        // Given a 200 with no body
        let response = jsonResponse("")
        // When parsed
        // Then it fails with decoding naming the type and the empty body
        let error = #expect(throws: FetchError.self) { try Account.parse(from: response) }
        #expect(error?.code == .decoding)
        #expect(error?.reason == "expected Account but the body was empty")
    }

    @Test func aMissingKeyNamesTheTypeTheKeyPathAndTheBody() {
        // Given a body whose second member lacks a name
        let body = #"{"members":[{"id":1,"name":"Ada"},{"id":2}]}"#
        let response = jsonResponse(body)
        // When parsed
        // Then the error names the type, the key, where it was missing, the body's start and the request
        let error = #expect(throws: FetchError.self) { try Team.parse(from: response) }
        #expect(error?.code == .decoding)
        #expect(error?.reason.contains("could not decode Team") == true)
        #expect(error?.reason.contains(#"key "name" not found at members[1]"#) == true)
        #expect(error?.reason.contains("body began: \(body)") == true)
        #expect(error?.description.hasPrefix("GET https://api.example.com/accounts/7: ") == true)
        #expect(error?.underlying is DecodingError)
        #expect(error?.response != nil)
    }

    @Test func aTypeMismatchNamesThePath() {
        // Given an id that is a string
        let response = jsonResponse(#"{"id":"seven","name":"Ada"}"#)
        // When parsed
        // Then the error says what was expected where
        let error = #expect(throws: FetchError.self) { try Account.parse(from: response) }
        #expect(error?.code == .decoding)
        #expect(error?.reason.contains("expected Int at id") == true)
    }

    @Test func aLongBodyIsCutInTheError() throws {
        // Given a large body that is not JSON
        let response = jsonResponse(String(repeating: "x", count: 5_000))
        // When parsed
        let error = #expect(throws: FetchError.self) { try Account.parse(from: response) }
        // Then the error holds only the body's start
        let reason = try #require(error?.reason)
        #expect(reason.count < 400)
        #expect(reason.hasSuffix("…"))
    }

    @Test func arraysOfModelsDecode() throws {
        // Given a JSON array
        let response = jsonResponse(#"[{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]"#)
        // When parsed as an array of models
        let users = try [Account].parse(from: response)
        // Then every element is decoded
        #expect(users == [Account(id: 1, name: "Ada"), Account(id: 2, name: "Grace")])
    }

    @Test func aConfiguredDecoderIsUsedThroughDecode() throws {
        // Given snake_case keys
        struct Profile: Decodable { let displayName: String }
        let response = jsonResponse(#"{"display_name":"Ada"}"#)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        // When decoded with a configured decoder
        let profile = try response.decode(Profile.self, using: decoder)
        // Then the decoder's strategy applied
        #expect(profile.displayName == "Ada")
    }
}
