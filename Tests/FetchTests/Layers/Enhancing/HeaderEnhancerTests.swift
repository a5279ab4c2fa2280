import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct HeaderEnhancerTests {
    /// Sends `request` below `enhancers` and returns the URLRequest the spy saw, or the error.
    private func send(_ request: any Request, _ enhancers: any Enhancer...) -> Result<URLRequest, FetchError> {
        let spy = SpyPerformer([.status(200)])
        let result = performNow(spy.enhanced(by: enhancers), request)
        if let error = fetchError(result) { return .failure(error) }
        guard let sent = spy.urlRequests.first ?? nil else {
            return .failure(FetchError(.transport, reason: "no call"))
        }
        return .success(sent)
    }

    @Test func fixedHeadersAreAddedWithoutReplacingTheRequestsOwn() throws {
        // Given fixed headers, one of which the request sets itself
        let request = BasicRequest(url: URL(string: "http://x")!, headers: ["X-Mine": "request"])

        // When it is sent with and without replacing
        let kept = try send(request, FixedHeaders(["X-App": "2.1", "X-Mine": "fixed"])).get()
        let replaced = try send(request, FixedHeaders(["X-Mine": "fixed"], replacingExisting: true)).get()

        // Then the request's own value wins unless replacing was asked for
        #expect(kept.value(forHTTPHeaderField: "X-App") == "2.1")
        #expect(kept.value(forHTTPHeaderField: "X-Mine") == "request")
        #expect(replaced.value(forHTTPHeaderField: "X-Mine") == "fixed")
    }

    @Test func aFixedHeaderWithALineBreakFailsTheCall() {
        // Given a fixed header whose value holds CR LF
        // When a request is sent
        let result = send(get("http://x"), FixedHeaders(["X-Evil": "a\r\nInjected: yes"]))

        // Then the call fails with invalidRequest naming the enhancer
        #expect(throws: FetchError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect(error.code == .invalidRequest)
            #expect(error.layer == "FixedHeaders")
        }
    }

    @Test func computedHeadersAreComputedPerRequest() throws {
        // Given a header computed from the request
        let header = ComputedHeader("X-Path") { request in request.url.path }

        // When two requests are sent
        let first = try send(get("http://x/one"), header).get()
        let second = try send(get("http://x/two"), header).get()

        // Then each got its own value
        #expect(first.value(forHTTPHeaderField: "X-Path") == "/one")
        #expect(second.value(forHTTPHeaderField: "X-Path") == "/two")
    }

    @Test func aComputedValueWithALineBreakFailsTheCall() {
        // Given a computed value holding LF
        // When a request is sent
        let result = send(get("http://x"), ComputedHeader("X-Id") { _ in "a\nb" })

        // Then the call fails naming the header
        #expect(throws: FetchError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.layer == "ComputedHeader(X-Id)") }
    }

    @Test func bearerTokenReadsTheStoreForEveryRequest() throws {
        // Given a token store behind BearerToken
        let store = TokenStore("one")
        let enhancer = BearerToken(store)

        // When a request is sent, the token changes, and another is sent
        let first = try send(get("http://x"), enhancer).get()
        store.token = "two"
        let second = try send(get("http://x"), enhancer).get()

        // Then each carried the token of its time
        #expect(first.value(forHTTPHeaderField: "Authorization") == "Bearer one")
        #expect(second.value(forHTTPHeaderField: "Authorization") == "Bearer two")
    }

    @Test func bearerTokenSkipsMarkedRequestsAndMissingTokens() throws {
        // Given a marked request, and a store without a token
        let marked = get("http://x").with(\.skipsAuthentication, true)

        // When each is sent
        let skipped = try send(marked, BearerToken(TokenStore("secret"))).get()
        let missing = try send(get("http://x"), BearerToken(TokenStore())).get()

        // Then neither carries Authorization
        #expect(skipped.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(missing.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func aTokenWithALineBreakFailsTheCall() {
        // Given a token holding CR LF
        // When a request is sent
        let result = send(get("http://x"), BearerToken(TokenStore("t\r\nX: y")))

        // Then the call fails with invalidRequest naming BearerToken
        #expect(throws: FetchError.self) { try result.get() }
        if case .failure(let error) = result {
            #expect(error.code == .invalidRequest)
            #expect(error.layer == "BearerToken")
        }
    }

    @Test func basicAuthEncodesTheCredentials() throws {
        // Given Basic auth credentials
        // When a request is sent
        let sent = try send(get("http://x"), BasicAuth(username: "Aladdin", password: "open sesame")).get()

        // Then they are sent as RFC 7617 says
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }

    @Test func basicAuthRefusesAColonInTheUserName() {
        // Given a user name holding a colon
        // When a request is sent
        let result = send(get("http://x"), BasicAuth(username: "a:b", password: "c"))

        // Then the call fails naming BasicAuth
        #expect(throws: FetchError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.layer == "BasicAuth") }
    }

    @Test func acceptAndContentTypeHelpers() throws {
        // Given a POST with a raw body that has no content type, and a GET
        let post = BasicRequest(url: URL(string: "http://x")!, method: .post, body: .data(Data([1]), contentType: nil))

        // When both are sent with Accept and ContentType
        let sentPost = try send(post, Accept.json, ContentType.json).get()
        let sentGet = try send(get("http://x"), Accept("text/csv", "text/plain"), ContentType.json).get()

        // Then Accept goes on both, Content-Type only on the one with a body
        #expect(sentPost.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(sentPost.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(sentGet.value(forHTTPHeaderField: "Accept") == "text/csv, text/plain")
        #expect(sentGet.value(forHTTPHeaderField: "Content-Type") == nil)
    }
}
