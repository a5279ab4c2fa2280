import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// What a `Session` hands URLSession: the settings behind "Safety on Linux".
struct SessionURLSessionTests {
    @Test func theURLSessionKeepsNothingAndSharesTheConnectionLimit() {
        // Given a session with a connection limit of 7
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = 7
        let session = Session(configuration: configuration)
        // When its URLSession's configuration is read
        let settings = session.urlSession.configuration
        // Then it has no cache and no cookie jar, and the limit per host is the session's
        #expect(settings.urlCache == nil)
        #expect(settings.httpCookieStorage == nil)
        #expect(settings.httpShouldSetCookies == false)
        #expect(settings.httpMaximumConnectionsPerHost == 7)
        #expect(session.urlSession.delegateQueue !== OperationQueue.main)
    }

    @Test(arguments: [
        (Duration.milliseconds(300), 1.0), (.milliseconds(1500), 2.0), (.seconds(30), 30.0), (.zero, 1.0),
    ])
    func idleTimeoutsAreWholeSecondsRoundedUp(timeout: Duration, expected: TimeInterval) {
        // Given an idle timeout, which URLSession on Linux truncates to whole seconds
        // When it is converted for URLSession
        // Then it is rounded up, to at least one second, so it never fires early
        #expect(Session.idleSeconds(timeout) == expected)
    }

    @Test func aRequestsIdleTimeoutReachesItsURLRequestRoundedUp() throws {
        // Given a session and a request with an idle timeout of 2.5 s
        let session = Session()
        var request = BasicRequest(url: URL(string: "http://127.0.0.1:9/")!)
        request.options.idleTimeout = .milliseconds(2500)
        // When its URLRequest is prepared
        let urlRequest = try session.prepare(request, options: request.options)
        // Then the URLRequest waits 3 s
        #expect(urlRequest.timeoutInterval == 3)
    }
}
