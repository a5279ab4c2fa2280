import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// The URLError codes URLSession on Linux produces, each mapped to a named code.
struct FetchErrorMappingTests {
    private static func urlError(_ code: URLError.Code, _ message: String? = nil) -> URLError {
        URLError(code, userInfo: message.map { [NSLocalizedDescriptionKey: $0] } ?? [:])
    }

    @Test(arguments: [
        (-1004, FetchError.Code.cannotConnect),  // connection refused
        (-1003, .hostNotFound),  // DNS failure
        (-1006, .hostNotFound),  // DNS lookup failed
        (-1002, .badServerResponse),  // "Received HTTP/0.9": not HTTP at all
        (-1011, .badServerResponse),  // closed with no reply
        (-1017, .badServerResponse),  // cannot parse response
        (-1103, .invalidRequest),  // GET with a body
        (-1000, .invalidRequest),  // bad URL such as http://[::1]:port
        (-1001, .timedOut),  // idle timeout
        (-999, .cancelled),  // cancelled task
        (-1005, .connectionLost),  // network connection lost
        (-1009, .notConnected),  // offline
        (-1007, .tooManyRedirects),
        (-1100, .file), (-1102, .file), (-3001, .file), (-1101, .file),  // an upload's file gone or unreadable
    ])
    func urlErrorCodeMapsToANamedCode(rawCode: Int, expected: FetchError.Code) throws {
        // Given a URLError as URLSession delivers it, with no URL attached
        let error = Self.urlError(try #require(URLError.Code(rawValue: rawCode)))
        // When it is mapped for a request
        let mapped = FetchError.mapping(error, method: .get, url: exampleURL("/x"))
        // Then it gets the named code, names the request and keeps the original
        #expect(mapped.code == expected)
        #expect(mapped.method == .get)
        #expect(mapped.url == exampleURL("/x"))
        #expect((mapped.underlying as? URLError)?.code.rawValue == rawCode)
        #expect(mapped.description.hasPrefix("GET https://api.example.com/x: "))
    }

    @Test func transferClosedEarlyIsAConnectionLost() {
        // Given libcurl's -1 for a body shorter than its Content-Length
        let error = Self.urlError(.unknown, "transfer closed with 990 bytes remaining to read")
        // When it is mapped
        let mapped = FetchError.mapping(error, method: .get, url: exampleURL("/partial"))
        // Then it is a lost connection that keeps libcurl's words
        #expect(mapped.code == .connectionLost)
        #expect(mapped.reason.contains("transfer closed"))
    }

    @Test func anOtherUnknownErrorIsATransportError() {
        // Given a -1 that is not about a short body
        let error = Self.urlError(.unknown, "something else")
        // When it is mapped
        let mapped = FetchError.mapping(error, method: .get, url: exampleURL("/"))
        // Then it is a transport error naming the URLError code
        #expect(mapped.code == .transport)
        #expect(mapped.reason.contains("URLError -1"))
    }

    @Test func aFetchErrorPassesThroughAndGetsTheRequest() {
        // Given a FetchError that names no request
        let error = FetchError(.bodyTooLarge, reason: "too large")
        // When it is mapped
        let mapped = FetchError.mapping(error, method: .post, url: exampleURL("/upload"))
        // Then its code is kept and the request is named
        #expect(mapped.code == .bodyTooLarge)
        #expect(mapped.method == .post)
        #expect(mapped.url == exampleURL("/upload"))
    }

    @Test func anyOtherErrorIsATransportErrorWithTheOriginalAttached() {
        // Given an error that is neither a URLError nor a FetchError
        struct SocketTrouble: Error {}
        // When it is mapped
        let mapped = FetchError.mapping(SocketTrouble(), method: nil, url: nil)
        // Then it is a transport error carrying the original
        #expect(mapped.code == .transport)
        #expect(mapped.underlying is SocketTrouble)
    }
}
