import Foundation
import Testing
import Fetch

struct RequestBodyTests {
    @Test func jsonEncodesTheValue() throws {
        // Given a JSON body
        let body = RequestBody.json(Account(id: 7, name: "Ada"))
        // When it is encoded
        let data = try body.encoded()
        // Then it decodes back to the value and is sent as application/json
        #expect(try JSONDecoder().decode(Account.self, from: data) == Account(id: 7, name: "Ada"))
        #expect(body.contentType == "application/json")
    }

    @Test func jsonUsesTheGivenEncoder() throws {
        // Given a JSON body with an encoder that converts keys to snake case
        struct Profile: Encodable { let displayName: String }
        let body = RequestBody.json(Profile(displayName: "Ada")) {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }
        // When it is encoded
        let text = String(decoding: try body.encoded(), as: UTF8.self)
        // Then the encoder's strategy was used
        #expect(text == #"{"display_name":"Ada"}"#)
    }

    @Test func aFailingEncodableThrowsEncodingNeverAnEmptyBody() {
        // Given a JSON body whose value cannot be encoded
        let body = RequestBody.json(Unencodable())
        // When it is encoded
        // Then it throws encoding, naming the type, with the encoder's error attached
        let error = #expect(throws: FetchError.self) { try body.encoded() }
        #expect(error?.code == .encoding)
        #expect(error?.reason.contains("Unencodable") == true)
        #expect(error?.underlying is Unencodable.Refused)
    }

    @Test func textIsUTF8() throws {
        // Given a text body, and one with its own type
        let plain = RequestBody.text("héllo")
        let csv = RequestBody.text("a,b", contentType: "text/csv")
        // When encoded
        // Then the bytes are UTF-8 and the types as given
        #expect(try plain.encoded() == Data("héllo".utf8))
        #expect(plain.contentType == "text/plain; charset=utf-8")
        #expect(csv.contentType == "text/csv")
    }

    @Test func dataIsSentAsGiven() throws {
        // Given raw bytes with and without a content type
        let bytes = Data([0, 1, 2, 255])
        let typed = RequestBody.data(bytes, contentType: "image/png")
        let untyped = RequestBody.data(bytes, contentType: nil)
        // When encoded
        // Then the bytes are unchanged
        #expect(try typed.encoded() == bytes)
        #expect(typed.contentType == "image/png")
        #expect(untyped.contentType == nil)
        #expect(RequestBody.data(bytes).contentType == "application/octet-stream")
    }

    @Test func formEncodesEveryValueSoItArrivesAsGiven() throws {
        // Given form fields holding +, &, =, space and non-ASCII
        let body = RequestBody.form([("q", "a+b & c=d"), ("name", "José")])
        // When encoded
        let text = String(decoding: try body.encoded(), as: UTF8.self)
        // Then space is +, a literal + is %2B, and the type is form-urlencoded
        #expect(text == "q=a%2Bb+%26+c%3Dd&name=Jos%C3%A9")
        #expect(body.contentType == "application/x-www-form-urlencoded")
    }

    @Test func formFromADictionaryIsSortedByName() throws {
        // Given form fields as a dictionary
        let body = RequestBody.form(["b": "2", "a": "1", "c": "3"])
        // When encoded
        // Then the fields come in name order, for a stable body
        #expect(String(decoding: try body.encoded(), as: UTF8.self) == "a=1&b=2&c=3")
    }
}
