import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
@testable import FetchCaching

struct MakeURLRequestTests {
    @Test func queryItemsAreEncodedSoEveryValueArrivesAsGiven() throws {
        // Given values holding every character URLComponents gets wrong, space and non-ASCII
        let request = BasicRequest(
            url: exampleURL("/search"),
            queryItems: [
                URLQueryItem(name: "q", value: "+&=?/;#"),
                URLQueryItem(name: "name", value: "José 😀"),
            ])
        // When it is built
        let url = try #require(try request.makeURLRequest().url)
        // Then each is percent-encoded, and decoding gives the values back exactly
        #expect(
            url.absoluteString == "https://api.example.com/search?q=%2B%26%3D%3F%2F%3B%23&name=Jos%C3%A9%20%F0%9F%98%80"
        )
        let decoded = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems
        #expect(decoded == [URLQueryItem(name: "q", value: "+&=?/;#"), URLQueryItem(name: "name", value: "José 😀")])
    }

    @Test func anExistingQueryIsKept() throws {
        // Given a URL that already has a query
        let request = BasicRequest(
            url: URL(string: "https://api.example.com/items?sort=name")!,
            queryItems: [URLQueryItem(name: "page", value: "2")])
        // When it is built
        let url = try request.makeURLRequest().url
        // Then the new items follow the old query
        #expect(url?.absoluteString == "https://api.example.com/items?sort=name&page=2")
    }

    @Test func theBodySetsContentTypeUnlessTheRequestDoes() throws {
        // Given one JSON request with no Content-Type and one that sets its own, in other casing
        let plain = BasicRequest(url: exampleURL("/accounts"), method: .post, body: .json(Account(id: 1, name: "Ada")))
        let custom = BasicRequest(
            url: exampleURL("/accounts"), method: .post,
            headers: ["content-type": "application/vnd.api+json"],
            body: .json(Account(id: 1, name: "Ada")))
        // When both are built
        let plainRequest = try plain.makeURLRequest()
        let customRequest = try custom.makeURLRequest()
        // Then the body's type is used only when none was set
        #expect(plainRequest.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(customRequest.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
        #expect(
            try JSONDecoder().decode(Account.self, from: #require(customRequest.httpBody))
                == Account(id: 1, name: "Ada"))
    }

    @Test func repeatedHeadersAreAllSent() throws {
        // Given a header given twice
        let request = BasicRequest(url: exampleURL("/"), headers: HTTPHeaders([("Accept", "a/b"), ("accept", "c/d")]))
        // When it is built
        let value = try request.makeURLRequest().value(forHTTPHeaderField: "Accept")
        // Then both values are sent, comma-joined as HTTP allows
        #expect(value == "a/b,c/d" || value == "a/b, c/d")
    }

    @Test func theCheckedRequestSetsRepeatedHeadersAtOnceAndStillRefusesABadOne() throws {
        // Given a header given twice in two spellings, and a request with a value holding CR/LF
        let repeated = BasicRequest(
            url: exampleURL("/"), headers: HTTPHeaders([("Accept", "a/b"), ("X-One", "1"), ("accept", "c/d")])
        )
        let injected = BasicRequest(url: exampleURL("/"), headers: ["X-One": "1", "X-Token": "a\r\nX-Injected: 1"])
        // When both are built and checked as Session checks them (the fields set at once)
        let urlRequest = try repeated.checkedURLRequest()
        let error = #expect(throws: FetchError.self) { try injected.checkedURLRequest() }
        // Then the repeats are joined under one name, in order, and the value holding CR/LF
        // is refused rather than dropped
        #expect(urlRequest.value(forHTTPHeaderField: "accept") == "a/b, c/d")
        #expect(urlRequest.allHTTPHeaderFields?.count == 2)
        #expect(error?.code == .invalidRequest)
        #expect(error?.reason.contains("X-Token") == true)
    }

    @Test(arguments: [
        ("bad\r\nX-Injected: 1", "CR"), ("bad\nvalue", "LF"), ("nul\u{0}byte", "NUL"), ("del\u{7F}", "DEL"),
        ("bell\u{7}", "byte 7"),
    ])
    func aControlCharacterInAHeaderValueIsAnInvalidRequest(value: String, named character: String) {
        // Given a header value with a control character other than tab
        let request = BasicRequest(url: exampleURL("/me"), headers: ["X-Token": value])
        // When it is built
        // Then it fails with invalidRequest naming the header, the character and the request
        let error = #expect(throws: FetchError.self) { try request.makeURLRequest() }
        #expect(error?.code == .invalidRequest)
        #expect(error?.reason.contains("X-Token") == true)
        #expect(error?.reason.contains("(\(character))") == true)
        #expect(error?.description.hasPrefix("GET https://api.example.com/me: ") == true)
    }

    @Test func aHeaderNameThatIsNotATokenIsAnInvalidRequest() {
        // Given a header name with a line break in it
        let request = BasicRequest(url: exampleURL("/"), headers: ["X-A\r\nX-B": "1"])
        // When it is built
        // Then it fails with invalidRequest
        let error = #expect(throws: FetchError.self) { try request.makeURLRequest() }
        #expect(error?.code == .invalidRequest)
    }

    @Test func aBodyThatFailsToEncodeFailsTheBuildWithEncoding() {
        // Given a request whose JSON body cannot be encoded
        let request = BasicRequest(url: exampleURL("/accounts"), method: .post, body: .json(Unencodable()))
        // When it is built
        // Then it fails with encoding naming the request, never sending an empty body
        let error = #expect(throws: FetchError.self) { try request.makeURLRequest() }
        #expect(error?.code == .encoding)
        #expect(error?.method == .post)
        #expect(error?.url == exampleURL("/accounts"))
        #expect(error?.underlying is Unencodable.Refused)
    }

    @Test func adjustRunsLastAndCanThrow() throws {
        // Given a request that adjusts its URLRequest, and one whose adjust throws
        struct Adjusted: Request {
            var url: URL { exampleURL("/a") }
            var headers: HTTPHeaders { ["Accept": "text/plain"] }
            func adjust(_ urlRequest: inout URLRequest) throws {
                urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
                urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
            }
        }
        struct Refusing: Request {
            struct NotSigned: Error {}
            var url: URL { exampleURL("/a") }
            func adjust(_ urlRequest: inout URLRequest) throws { throw NotSigned() }
        }
        // When they are built
        let adjusted = try Adjusted().makeURLRequest()
        // Then the adjustment wins, and the thrown error reaches the caller
        #expect(adjusted.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(adjusted.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(throws: Refusing.NotSigned.self) { try Refusing().makeURLRequest() }
    }
}
