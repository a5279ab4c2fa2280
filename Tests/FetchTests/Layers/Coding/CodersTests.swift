import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct CodersTests {
    struct Note: Codable, Parsable, Equatable { var createdAt: Date }
    struct Tags: Encodable, Sendable { var tags: [String] }

    static let snakeISO = Coders(
        jsonEncoder: {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.dateEncodingStrategy = .iso8601
            return encoder
        },
        jsonDecoder: {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .iso8601
            return decoder
        },
        parameterEncoder: ParameterEncoder(arrayEncoding: .repeated)
    )

    static let date = Date(timeIntervalSince1970: 1_795_545_000)

    @Test func aStacksCodersEncodeBodiesAndQueriesAndDecodeModels() throws {
        // Given a stack with snake_case ISO 8601 JSON coders and repeated arrays, at the bottom
        let spy = SpyPerformer([
            .response(.text(#"{"created_at":"2026-11-24T18:30:00Z"}"#, contentType: "application/json"))
        ])
        let api = spy.coding(with: Self.snakeISO).enhanced(by: Accept.json)
        let request = BasicRequest(
            url: exampleURL("/notes"), method: .post, query: Tags(tags: ["a", "b"]),
            body: .json(Note(createdAt: Self.date)))

        // When a note is sent and one decoded
        let result = Captured<Result<Note, any Error>>()
        api.perform(request, as: Note.self) { result.record($0) }

        // Then the body, the query and the model all used the stack's coders
        let sent = try #require(spy.calls.first?.urlRequest)
        #expect(String(decoding: sent.httpBody ?? Data(), as: UTF8.self) == #"{"created_at":"2026-11-24T18:30:00Z"}"#)
        #expect(sent.url?.query == "tags=a&tags=b")
        #expect(try result.only?.get() == Note(createdAt: Self.date))
    }

    @Test func aRequestOverridesOneCoderAndKeepsTheStacksOthers() throws {
        // Given a stack's coders and a request that names only its own parameter encoder
        let spy = SpyPerformer([.status(200)])
        let api = spy.coding(with: Self.snakeISO)
        let own = Coders(parameterEncoder: ParameterEncoder(arrayEncoding: .indexed))
        let request = BasicRequest(
            url: exampleURL("/notes"), method: .post, query: Tags(tags: ["a"]),
            body: .json(Note(createdAt: Self.date)),
            options: RequestOptions().with(\.coders, own))

        // When it is sent
        _ = performNow(api, request)

        // Then its own parameter encoder wins, and the stack's JSON encoder still applies
        let sent = try #require(spy.calls.first?.urlRequest)
        #expect(sent.url?.query == "tags%5B0%5D=a")
        #expect(String(decoding: sent.httpBody ?? Data(), as: UTF8.self) == #"{"created_at":"2026-11-24T18:30:00Z"}"#)
    }

    @Test func aModelsOwnDecoderBeatsTheStacksAndACallsBeatsBoth() throws {
        // Given a model that names its own decoder (seconds since 1970), under a stack decoding ISO 8601
        struct Stamp: Decodable, Parsable, JSONDecoderProviding, Equatable {
            var at: Date
            static var decoder: JSONDecoder {
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .secondsSince1970
                return decoder
            }
        }
        let answer = Response.text(#"{"at":1795545000}"#, contentType: "application/json")
        let api = SpyPerformer([.response(answer), .response(answer)]).coding(with: Self.snakeISO)

        // When it is decoded as the model, and with a decoder given for the call
        let model = Captured<Result<Stamp, any Error>>()
        api.perform(get("https://api.example.com/stamp"), as: Stamp.self) { model.record($0) }
        let call = Captured<Result<Stamp, any Error>>()
        api.perform(get("https://api.example.com/stamp"), decoding: Stamp.self, using: JSONDecoder()) {
            call.record($0)
        }

        // Then the model's decoder was used, and the call's (deferred-to-Date doubles) after it
        #expect(try model.only?.get() == Stamp(at: Self.date))
        #expect(try call.only?.get() == Stamp(at: Date(timeIntervalSinceReferenceDate: 1_795_545_000)))
    }

    @Test func withoutACodingLayerTheDefaultsApply() throws {
        // Given no coding layer
        let spy = SpyPerformer([.status(200)])

        // When a body with a date and a query with an array are sent
        _ = performNow(
            spy,
            BasicRequest(
                url: exampleURL("/n"), method: .post, query: Tags(tags: ["a"]),
                body: .json(Tags(tags: ["x"]))))

        // Then the plain JSONEncoder and the bracket arrays were used
        let sent = try #require(spy.calls.first?.urlRequest)
        #expect(sent.url?.query == "tags%5B%5D=a")
        #expect(String(decoding: sent.httpBody ?? Data(), as: UTF8.self) == #"{"tags":["x"]}"#)
    }
}
