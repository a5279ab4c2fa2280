import Foundation
import Testing
import Fetch

struct BuiltInParsablesTests {
    @Test func dataIsTheBodyAsItCame() throws {
        // Given a 200 with bytes
        let bytes = Data([0, 159, 255])
        // When parsed as Data
        // Then the bytes are returned unchanged
        #expect(try Data.parse(from: Response(status: 200, body: bytes)) == bytes)
    }

    @Test func dataFromAnErrorStatusThrows() {
        // Given a 500
        // When parsed as Data
        // Then it fails with httpStatus
        let error = #expect(throws: FetchError.self) { try Data.parse(from: Response(status: 500)) }
        #expect(error?.code == .httpStatus)
    }

    @Test func stringIsUTF8WithoutACharset() throws {
        // Given UTF-8 text without a charset
        let response = Response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("héllo 😀".utf8))
        // When parsed as String
        // Then it is read as UTF-8
        #expect(try String.parse(from: response) == "héllo 😀")
    }

    @Test func stringUsesTheCharsetOfContentType() throws {
        // Given "café" in Latin-1, where é is the single byte 0xE9
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])
        let response = Response(status: 200, headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], body: latin1)
        // When parsed as String
        // Then the charset was used
        #expect(try String.parse(from: response) == "café")
    }

    @Test func bytesInvalidInTheCharsetAreADecodingError() {
        // Given a lone 0xE9, which is not UTF-8
        let response = Response(
            request: BasicRequest(url: exampleURL("/text")), status: 200,
            headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data([0xE9]))
        // When parsed as String
        // Then it fails with decoding naming the charset and the request
        let error = #expect(throws: FetchError.self) { try String.parse(from: response) }
        #expect(error?.code == .decoding)
        #expect(error?.reason.contains("utf-8") == true)
        #expect(error?.description.hasPrefix("GET https://api.example.com/text: ") == true)
    }

    @Test func anUnknownCharsetIsADecodingError() {
        // Given a charset nobody knows
        let response = Response(
            status: 200, headers: ["Content-Type": "text/plain; charset=klingon"],
            body: Data("x".utf8))
        // When parsed as String
        // Then it fails with decoding naming the charset
        let error = #expect(throws: FetchError.self) { try String.parse(from: response) }
        #expect(error?.code == .decoding)
        #expect(error?.reason.contains("klingon") == true)
    }

    @Test func emptyAcceptsAnyTwoHundredAndIgnoresTheBody() throws {
        // Given a 204 and a 200 with a body
        // When parsed as Empty
        // Then both succeed
        #expect(try Empty.parse(from: Response(status: 204)) == Empty())
        #expect(try Empty.parse(from: Response(status: 200, body: Data("ignored".utf8))) == Empty())
    }

    @Test func emptyFromAnErrorStatusThrows() {
        // Given a 409
        // When parsed as Empty
        // Then it fails with httpStatus
        let error = #expect(throws: FetchError.self) { try Empty.parse(from: Response(status: 409)) }
        #expect(error?.code == .httpStatus)
        #expect(error?.status == 409)
    }

    @Test func responseIsItselfWhateverTheStatus() throws {
        // Given a 503 with a header
        let response = Response(status: 503, headers: ["Retry-After": "5"])
        // When parsed as Response
        let parsed = try Response.parse(from: response)
        // Then it comes back unchanged, without an error
        #expect(parsed.status == 503)
        #expect(parsed.headers["retry-after"] == "5")
    }
}
