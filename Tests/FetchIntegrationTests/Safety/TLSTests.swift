import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// Each way a TLS handshake fails ends in `tls` with its reason, fast and without a retry,
/// against HTTPS servers the suite starts with certificates made at that moment.
@Suite(.loopbackServers, .tlsServers)
struct TLSTests {
    /// One TLS server and what the failure's reason must say.
    struct Case: CustomTestStringConvertible, Sendable {
        let server: String
        let says: String
        var testDescription: String { server }
    }

    /// A session that gives up within 10 s: a TLS failure must come long before.
    static func session() -> Session {
        var configuration = Session.Configuration()
        configuration.deadline = TimedTests.FaultTests.bound(10)
        return Session(configuration: configuration)
    }

    /// Sends a GET to `url` through a retrying session and returns the FetchError it ends with.
    static func failure(of url: URL) async -> FetchError? {
        await #expect(throws: FetchError.self) {
            try await Self.session().retrying(.exponential(maxAttempts: 3)).response(for: BasicRequest(url: url))
        }
    }

    @Test(arguments: [
        Case(server: "untrusted", says: "add it to the system trust store"),
        Case(server: "selfSigned", says: "add it to the system trust store"),
    ])
    func aCertificateNobodyTrustsIsTLS(tlsCase: Case) async throws {
        // Given an HTTPS server whose certificate is signed by a CA nobody trusts, or by itself
        let url = try TLSServers.require().url(tlsCase.server)
        // When a request is sent to it
        let error = await Self.failure(of: url)
        // Then it fails with tls, the reason and the fix
        #expect(error?.code == .tls)
        #expect(error?.reason.contains(tlsCase.says) == true)
        #expect(error?.url == url)
    }

    @Test func httpsToAPlainHTTPPortIsTLS() async throws {
        // Given a plain-HTTP server that answers anything with a 400, asked for over https
        let url = try TLSServers.require().url("plain")
        // When a request is sent
        let error = await Self.failure(of: url)
        // Then it fails with tls, saying the port does not speak TLS
        #expect(error?.code == .tls)
        #expect(error?.reason.contains("does not speak TLS on that port") == true)
    }

    /// The test that runs in a child process where the suite's CA is the system trust store.
    static let trustedTest = "TLSTests/withTheCATrusted"

    @Test func failuresPastTheTrustCheckAreTLSWithTheirReason() async throws {
        // Given a child process in which the system trust store holds only the suite's CA: a
        // mount namespace of its own, where the CA file is bound over the store's bundle
        // (libcurl reads only that bundle: no environment variable changes it)
        let servers = try LoopbackServers.require()
        let tls = try TLSServers.require()
        let launcher = IsolatedRun.trusting(caFile: try tls.caFile())
        // When it sends a request to each server: trusted, expired, not yet valid, wrong host,
        // client certificate required
        let outcome = try await IsolatedRun.run(
            Self.trustedTest, faultServer: servers.faults, environment: [Self.serversVariable: tls.startLine],
            launcher: launcher
        )
        // Then each one's test ran and passed in the child
        #expect(outcome.status == 0, "\(outcome.output)")
        #expect(outcome.output.contains("withTheCATrusted(tlsCase:) with 4 test cases passed"))
    }

    static let serversVariable = "FETCH_TLS_SERVERS"

    @Test(
        .enabled(if: IsolatedRun.isChild(named: trustedTest)),
        arguments: [
            Case(server: "expired", says: "has expired"),
            Case(server: "notYetValid", says: "not valid yet"),
            Case(server: "wrongHost", says: "for another host name"),
            Case(server: "clientCertificate", says: "requires a client certificate"),  // TLS 1.2: refused handshake
        ])
    func withTheCATrusted(tlsCase: Case) async throws {
        // Given the parent's TLS servers, with their CA trusted
        let line = try #require(ProcessInfo.processInfo.environment[Self.serversVariable])
        let servers = try TLSServers(startLine: line)
        // When a request goes to the server with a valid certificate
        let trusted = try await Self.session().response(for: BasicRequest(url: try servers.url("port")))
        // Then it is answered (the CA is trusted)
        #expect(trusted.status == 200)
        #expect(trusted.body == Data("ok".utf8))
        // And a request to the case's server fails with tls and its reason
        let error = await Self.failure(of: try servers.url(tlsCase.server))
        #expect(error?.code == .tls)
        #expect(error?.reason.contains(tlsCase.says) == true, "\(error?.reason ?? "no error")")
    }
}
