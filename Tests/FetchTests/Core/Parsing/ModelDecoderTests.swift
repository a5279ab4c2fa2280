import Foundation
import Testing
import Fetch
import FetchTesting

/// A model names its own `JSONDecoder` with `JSONDecoderProviding`; every way of parsing it uses that decoder.
struct ModelDecoderTests {
    /// A model whose API sends snake_case keys and ISO 8601 dates.
    private struct Event: Decodable, Parsable, Equatable, JSONDecoderProviding {
        let title: String
        let startsAt: Date

        static var decoder: JSONDecoder {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .iso8601
            return decoder
        }
    }

    /// A model that conforms without choosing: it gets a plain decoder.
    private struct Plain: Decodable, Parsable, Equatable, JSONDecoderProviding {
        let startsAt: Date
    }

    private struct GetEvent: TypedRequest {
        typealias Output = Event
        var url: URL { URL(string: "https://api.example.com/events/1")! }
    }

    private static let event = Event(title: "Launch", startsAt: Date(timeIntervalSince1970: 1_714_564_800))
    private static let eventJSON = #"{"title":"Launch","starts_at":"2024-05-01T12:00:00Z"}"#

    @Test func aModelIsParsedWithItsOwnDecoder() throws {
        // Given a response in the model's format
        let response = jsonResponse(Self.eventJSON)
        // When it is parsed as the model, and decoded without naming a decoder
        // Then the model's decoder read the snake_case key and the ISO 8601 date
        #expect(try Event.parse(from: response) == Self.event)
        #expect(try response.parse(as: Event.self) == Self.event)
        #expect(try response.decode(Event.self) == Self.event)
    }

    @Test func anArrayOfModelsUsesTheElementsDecoder() throws {
        // Given an array in the model's format
        let response = jsonResponse("[\(Self.eventJSON),\(Self.eventJSON)]")
        // When it is parsed as an array of the model
        let events = try [Event].parse(from: response)
        // Then each element was read with the model's decoder
        #expect(events == [Self.event, Self.event])
    }

    @Test func aTypedRequestParsesItsOutputWithTheOutputsDecoder() async throws {
        // Given a spy answering a typed request for the model, by callback then by async
        let spy = SpyPerformer([.text(Self.eventJSON), .text(Self.eventJSON)])
        let result = Captured<Result<Event, any Error>>()
        // When it is performed both ways
        spy.perform(GetEvent()) { result.record($0) }
        let awaited = try await spy.perform(GetEvent())
        // Then both decoded with the model's decoder
        #expect(try result.only?.get() == Self.event)
        #expect(awaited == Self.event)
    }

    @Test func aDecoderGivenForOneCallWins() throws {
        // Given the model's body with camelCase keys, and a decoder for this call only
        let response = jsonResponse(#"{"title":"Launch","startsAt":"2024-05-01T12:00:00Z"}"#)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        // When decoded with that decoder
        // Then it was used instead of the model's
        #expect(try response.decode(Event.self, using: decoder) == Self.event)
    }

    @Test func aModelThatDoesNotChooseGetsAPlainDecoder() {
        // Given an ISO 8601 date, which a plain decoder does not read
        let response = jsonResponse(#"{"startsAt":"2024-05-01T12:00:00Z"}"#)
        // When parsed as a model that conforms without choosing a decoder
        // Then the plain decoder fails, naming the type
        let error = #expect(throws: FetchError.self) { try Plain.parse(from: response) }
        #expect(error?.code == .decoding)
        #expect(error?.reason.contains("Plain") == true)
    }

    @Test func bothPerCallOverloadsTakeTheSameDecoder() async throws {
        // Given one configured decoder and a type that is Decodable but not Parsable
        struct Profile: Decodable, Sendable { let displayName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let spy = SpyPerformer([.text(#"{"display_name":"Ada"}"#), .text(#"{"display_name":"Grace"}"#)])
        let request = BasicRequest(url: exampleURL("/me"))
        let called = Captured<Result<Profile, any Error>>()
        // When the same decoder is passed to the callback and the async call
        spy.perform(request, decoding: Profile.self, using: decoder) { called.record($0) }
        let awaited = try await spy.perform(request, decoding: Profile.self, using: decoder)
        // Then both used it
        #expect(try called.only?.get().displayName == "Ada")
        #expect(awaited.displayName == "Grace")
    }
}
