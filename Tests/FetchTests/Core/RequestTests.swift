import Foundation
import Testing
import Fetch

struct RequestTests {
    private struct OnlyURL: Request {
        var url: URL { exampleURL("/ping") }
    }

    @Test func aRequestNeedsOnlyAURL() throws {
        // Given a request that declares only its URL
        let request = OnlyURL()
        // When its other parts are read and it is built
        var urlRequest = try request.makeURLRequest()
        let before = urlRequest
        try request.adjust(&urlRequest)
        // Then it is a bare GET and `adjust` changes nothing
        #expect(request.method == .get)
        #expect(request.headers.isEmpty)
        #expect(request.queryItems.isEmpty)
        #expect(request.body == nil)
        #expect(request.options.deadline == nil)
        #expect(urlRequest == before)
        #expect(urlRequest.httpMethod == "GET")
        #expect(urlRequest.httpBody == nil)
        #expect(urlRequest.url == exampleURL("/ping"))
    }

    @Test func basicRequestDefaultsToAGetOfItsURL() {
        // Given a basic request made from a URL alone
        let request = BasicRequest(url: exampleURL("/accounts"))
        // When its parts are read
        // Then they are the protocol's defaults
        #expect(request.method == .get)
        #expect(request.headers.isEmpty)
        #expect(request.queryItems.isEmpty)
        #expect(request.body == nil)
        #expect(request.options.deadline == nil)
    }

    @Test func basicRequestKeepsEveryPart() throws {
        // Given a basic request with every part set
        let request = BasicRequest(
            url: exampleURL("/accounts"), method: .post, headers: ["Accept": "application/json"],
            queryItems: [URLQueryItem(name: "page", value: "2")], body: .text("hi"),
            options: RequestOptions().with(\.deadline, .seconds(3))
        )
        // When it is built
        let urlRequest = try request.makeURLRequest()
        // Then every part is in the URLRequest
        #expect(urlRequest.httpMethod == "POST")
        #expect(urlRequest.url?.absoluteString == "https://api.example.com/accounts?page=2")
        #expect(urlRequest.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(urlRequest.httpBody == Data("hi".utf8))
        #expect(request.options.deadline == .seconds(3))
    }
}
