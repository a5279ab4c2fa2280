import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// `Session(urlSessionConfiguration:)`: the caller's transport settings, with Fetch's
/// safety settings applied over them.
struct SessionFromURLSessionConfigurationTests {
    final class Stub: URLProtocol {}

    @Test func theCallersSettingsAreKeptAndTheSafetySettingsApplied() throws {
        // Given a default configuration with a shared cookie jar, a cache, a protocol and headers
        let callers = URLSessionConfiguration.default
        callers.httpCookieStorage = HTTPCookieStorage.shared
        callers.urlCache = URLCache(memoryCapacity: 1024, diskCapacity: 0, diskPath: nil)
        callers.protocolClasses = [Stub.self]
        callers.httpAdditionalHeaders = ["X-Client": "ios-4.2"]
        callers.httpMaximumConnectionsPerHost = 50
        callers.timeoutIntervalForRequest = 600

        // When a session is made from it
        let session = try Session(urlSessionConfiguration: callers)
        let settings = session.urlSession.configuration

        // Then its protocol and headers are kept, and storage, limits and timeouts are Fetch's
        #expect(settings.protocolClasses?.first == Stub.self)
        #expect(settings.httpAdditionalHeaders?["X-Client"] as? String == "ios-4.2")
        #expect(settings.httpCookieStorage == nil)
        #expect(settings.httpShouldSetCookies == false)
        #expect(settings.urlCache == nil)
        #expect(settings.urlCredentialStorage == nil)
        #expect(settings.httpMaximumConnectionsPerHost == 6)
        #expect(settings.timeoutIntervalForRequest == 30)
        // And the caller's object is left as it was
        #expect(callers.httpCookieStorage === HTTPCookieStorage.shared)
        #expect(callers.httpMaximumConnectionsPerHost == 50)
    }

    @Test(arguments: [
        ["X-Bad": "a\r\nInjected: yes"], ["Bad Name": "x"], ["Content-Length": "0"],
    ])
    func anAdditionalHeaderThatIsNotAllowedFailsEveryRequest(headers: [String: String]) async throws {
        // Given a configuration whose added headers break the rules
        let callers = URLSessionConfiguration.ephemeral
        callers.httpAdditionalHeaders = headers
        let session = try Session(urlSessionConfiguration: callers)

        // When a request is made (to a port nothing listens on: nothing may be sent)
        let error = await #expect(throws: FetchError.self) {
            try await session.response(for: BasicRequest(url: URL(string: "http://127.0.0.1:9/")!))
        }

        // Then it fails before sending, naming where the field came from
        #expect(error?.code == .invalidRequest)
        #expect(error?.reason.contains("URLSessionConfiguration.httpAdditionalHeaders") == true)
    }

    @Test func anAdditionalHeaderThatIsNotTextFailsEveryRequest() async throws {
        // Given a configuration whose added header has a number as its value
        let callers = URLSessionConfiguration.ephemeral
        callers.httpAdditionalHeaders = ["X-Count": 3]
        let session = try Session(urlSessionConfiguration: callers)

        // When a request is made
        let error = await #expect(throws: FetchError.self) {
            try await session.response(for: BasicRequest(url: URL(string: "http://127.0.0.1:9/")!))
        }

        // Then it fails saying so
        #expect(error?.code == .invalidRequest)
        #expect(error?.reason.contains("not text") == true)
    }
}
