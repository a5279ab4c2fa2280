import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// A `Session` made from the caller's `URLSessionConfiguration`, against httpbin.
@Suite(.loopbackServers)
struct CallersURLSessionConfigurationTests {
    struct Echo: Decodable, Parsable { let headers: [String: String] }

    @Test func theCallersHeadersAreSentAndNoCookieIsKept() async throws {
        // Given a session from a default configuration with a header of the app's and the shared cookie jar
        let servers = try LoopbackServers.require()
        let callers = URLSessionConfiguration.default
        callers.httpAdditionalHeaders = ["X-Client": "fetch-tests"]
        callers.httpCookieStorage = HTTPCookieStorage.shared
        let session = try Session(urlSessionConfiguration: callers)

        // When a server sets a cookie, and then headers are echoed
        _ = try await session.response(for: BasicRequest(url: servers.httpbin.url("/cookies/set?flavour=oat")))
        let echo = try await session.perform(BasicRequest(url: servers.httpbin.url("/headers")), as: Echo.self)

        // Then the app's header went out, and the cookie was neither kept nor sent back
        #expect(echo.headers["X-Client"] == "fetch-tests")
        #expect(echo.headers["Cookie"] == nil)
    }
}
