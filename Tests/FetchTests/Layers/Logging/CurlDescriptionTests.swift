import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

@Suite struct CurlDescriptionTests {
    @Test func describesAPostWithHeadersAndABody() throws {
        // Given a POST with a JSON body, a token, and a quote in a header
        let request = BasicRequest(
            url: URL(string: "https://api.test/items?token=abc")!, method: .post,
            headers: ["Authorization": "Bearer abc", "X-Note": "it's"], body: .text(#"{"a":1}"#)
        )

        // When its cURL description is made, hiding the token query item
        let curl = try request.curlDescription(redaction: .default.adding(queryItems: ["token"]))

        // Then it is a runnable command without the secrets
        #expect(
            curl == """
                curl -X 'POST' 'https://api.test/items?token=<redacted>' \\
                  -H 'Authorization: <redacted>' \\
                  -H 'Content-Type: text/plain; charset=utf-8' \\
                  -H 'X-Note: it'\\''s' \\
                  --data-binary '{"a":1}'
                """)
    }

    @Test func getAndHeadNeedNoMethodFlag() throws {
        // Given a GET and a HEAD
        // When they are described
        // Then GET is plain and HEAD uses --head
        #expect(try get("http://x/a").curlDescription() == "curl 'http://x/a'")
        #expect(
            try BasicRequest(url: URL(string: "http://x/a")!, method: .head).curlDescription()
                == "curl --head 'http://x/a'")
    }

    @Test func binaryBodiesAreLeftOutAndNamed() {
        // Given a URLRequest with bytes that are not UTF-8
        var urlRequest = URLRequest(url: URL(string: "http://x")!)
        urlRequest.httpMethod = "PUT"
        urlRequest.httpBody = Data([0xFF, 0xFE, 0x00])

        // When it is described
        let curl = urlRequest.curlDescription()

        // Then the body is named, not dumped
        #expect(curl.hasSuffix("# a body of 3 bytes that are not UTF-8 text is left out"))
    }

    @Test func aRequestThatCannotBeBuiltThrows() {
        // Given a request whose header value holds a line break
        let request = BasicRequest(url: URL(string: "http://x")!, headers: ["X-Evil": "a\r\nb"])

        // When it is described
        // Then the building error comes out
        #expect(throws: FetchError.self) { try request.curlDescription() }
    }

    @Test func everyDefaultSensitiveHeaderIsHidden() {
        // Given a URLRequest carrying each header hidden by default, in mixed case, and one ordinary header
        var urlRequest = URLRequest(url: URL(string: "http://x")!)
        urlRequest.setValue("session=secret", forHTTPHeaderField: "Cookie")
        urlRequest.setValue("Basic secret", forHTTPHeaderField: "Proxy-Authorization")
        urlRequest.setValue("id=secret", forHTTPHeaderField: "set-cookie")
        urlRequest.setValue("Bearer secret", forHTTPHeaderField: "AUTHORIZATION")
        urlRequest.setValue("yes", forHTTPHeaderField: "X-Visible")

        // When it is described
        let curl = urlRequest.curlDescription()

        // Then each sensitive value is replaced and the ordinary one kept
        #expect(!curl.contains("secret"))
        #expect(curl.contains("'Cookie: <redacted>'"))
        #expect(curl.contains("'Proxy-Authorization: <redacted>'"))
        #expect(curl.lowercased().contains("'set-cookie: <redacted>'"))
        #expect(curl.lowercased().contains("'authorization: <redacted>'"))
        #expect(curl.contains("'X-Visible: yes'"))
    }
}

@Suite struct RelativeCurlDescriptionTests {
    @Test func aRelativeRequestSaysSoOrTakesABaseURL() throws {
        // Given a POST to a relative URL
        let request = BasicRequest(url: URL(string: "post")!, method: .post)

        // When it is described alone, and with a base URL
        let alone = try request.curlDescription()
        let based = try request.curlDescription(baseURL: URL(string: "https://api.example.com/v1"))

        // Then alone it says the URL is relative; with the base it is complete
        #expect(alone.hasPrefix("# 'post' is relative: pass a baseURL"))
        #expect(based == "curl -X 'POST' 'https://api.example.com/v1/post'")
    }
}
