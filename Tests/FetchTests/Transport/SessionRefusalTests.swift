import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// Requests a `Session` refuses before anything is sent, so these need no server.
struct SessionRefusalTests {
    @Test(arguments: [
        BasicRequest(url: URL(string: "ftp://127.0.0.1:9/file")!),
        BasicRequest(url: URL(string: "file:///etc/hostname")!),
        BasicRequest(url: URL(string: "http://127.0.0.1:9/")!, body: .text("a GET with a body")),
        BasicRequest(url: URL(string: "http://127.0.0.1:9/")!, method: "BAD METHOD"),
        BasicRequest(url: URL(string: "http://127.0.0.1:9/")!, headers: ["X-A": "1\r\nX-B: 2"]),
    ])
    func anInvalidRequestFailsBeforeSending(request: BasicRequest) async {
        // Given a session and a request it cannot send as written
        let session = Session()
        // When it is performed
        // Then it fails with invalidRequest naming the request
        let error = await #expect(throws: FetchError.self) { try await session.response(for: request) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.url == request.url)
    }

    @Test func aContentLengthSetInAdjustIsRefused() async {
        // Given a request that sets Content-Length itself
        // When a session performs it
        // Then it fails with invalidRequest instead of leaving stray bytes on the connection
        let error = await #expect(throws: FetchError.self) { try await Session().response(for: SettingContentLength()) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.reason.contains("Content-Length") == true)
    }

    @Test func aUserAgentWithALineBreakIsRefused() async {
        // Given a session whose configured User-Agent holds CR LF
        var configuration = Session.Configuration()
        configuration.userAgent = "App/1\r\nX-Injected: yes"
        let request = BasicRequest(url: URL(string: "http://127.0.0.1:9/")!)
        // When it performs a request without a User-Agent of its own
        // Then it fails with invalidRequest naming the request, instead of sending none
        let error = await #expect(throws: FetchError.self) {
            try await Session(configuration: configuration).response(for: request)
        }
        #expect(error?.code == .invalidRequest)
        #expect(error?.reason.contains("User-Agent") == true)
        #expect(error?.url == request.url)
    }

    @Test func anUnencodableBodyFailsWithEncoding() async {
        // Given a POST whose body cannot be encoded
        let request = BasicRequest(url: URL(string: "http://127.0.0.1:9/")!, method: .post, body: .json(Unencodable()))
        // When a session performs it
        // Then it fails with encoding
        let error = await #expect(throws: FetchError.self) { try await Session().response(for: request) }
        #expect(error?.code == .encoding)
    }
}
