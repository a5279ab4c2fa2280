import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

struct HeaderRulesTests {
    private func urlRequest(
        _ url: String, method: String = "GET", body: Data? = nil,
        headers: [String: String] = [:]
    ) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body
        request.allHTTPHeaderFields = headers
        return request
    }

    @Test(arguments: ["GET", "X-Custom", "a!#$%&'*+-.^_`|~z"])
    func tokensAreAccepted(text: String) {
        // Given an RFC 9110 token
        // When checked
        // Then it is a token
        #expect(HeaderRules.isToken(text))
    }

    @Test(arguments: ["", "two words", "a:b", "é", "a\r\nb", "(x)", "a\"b"])
    func nonTokensAreRefused(text: String) {
        // Given text that is empty or holds a space, separator, non-ASCII or a line break
        // When checked
        // Then it is not a token
        #expect(!HeaderRules.isToken(text))
    }

    @Test func anOrdinaryRequestPasses() throws {
        // Given a well-formed POST with a body and headers
        let request = urlRequest(
            "https://h.example:8443/p", method: "POST", body: Data("x".utf8),
            headers: ["Accept": "*/*", "X-Trace": "a\tb"])
        // When validated
        // Then nothing is thrown
        try HeaderRules.validate(request)
    }

    @Test(arguments: ["Content-Length", "host", "Transfer-Encoding", "Connection"])
    func headersTheTransportOwnsAreRefused(name: String) {
        // Given a header only the transport may set
        // When it is validated
        // Then it fails with invalidRequest naming it
        let error = #expect(throws: FetchError.self) { try HeaderRules.validate(name: name, value: "1") }
        #expect(error?.code == .invalidRequest)
        #expect(error?.reason.contains(name) == true)
    }

    @Test(arguments: [
        ("ftp://h.example/file", "GET", "only http and https"),
        ("file:///etc/hostname", "GET", "only http and https"),
        ("http://h.example:99999/", "GET", "port 99999"),
        ("http:///nohost", "GET", "no host"),
        ("https://h.example/", "GET\r\nX: 1", "not a valid token"),
    ])
    func badRequestsAreRefusedBeforeSending(url: String, method: String, reason: String) {
        // Given a URLRequest with a bad scheme, port, host or method
        let request = urlRequest(url, method: method)
        // When it is validated
        // Then it fails with invalidRequest saying why
        let error = #expect(throws: FetchError.self) { try HeaderRules.validate(request) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.reason.contains(reason) == true)
    }

    @Test(arguments: ["GET", "HEAD"])
    func aBodyOnGetOrHeadIsRefused(method: String) {
        // Given a GET or HEAD with a body (libcurl fails those with -1103 after writing to stderr)
        let request = urlRequest("https://h.example/", method: method, body: Data("x".utf8))
        // When validated
        // Then it fails with invalidRequest before anything is sent
        let error = #expect(throws: FetchError.self) { try HeaderRules.validate(request) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.method?.rawValue == method)
    }

    @Test func aHeaderSetPastTheValueChecksIsStillRefused() {
        // Given a header with CR/LF set through `allHTTPHeaderFields`, which puts it on the wire as written
        let request = urlRequest("https://h.example/", headers: ["X-Evil": "a\r\nInjected: yes"])
        // When validated
        // Then it fails with invalidRequest naming the request
        let error = #expect(throws: FetchError.self) { try HeaderRules.validate(request) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.url?.absoluteString == "https://h.example/")
    }
}
