import Foundation
import Testing

/// HTTPS servers on 127.0.0.1, one port per TLS failure, with certificates made when they
/// start (Servers/tls_server.py): a CA of their own and a certificate per case.
struct TLSServers: Sendable {
    /// The cases and their ports, and `ca`, the CA's file, as the script printed them.
    let startLine: String
    private let details: [String: String]

    init(startLine: String) throws {
        let object = try #require(TestServer.details(in: startLine), "not the TLS servers' start line: \(startLine)")
        self.startLine = startLine
        details = object.mapValues { "\($0)" }
    }

    /// `https://127.0.0.1:<port of case>/`.
    func url(_ name: String) throws -> URL {
        let port = try #require(details[name], "no TLS server for \(name)")
        return try #require(URL(string: "https://127.0.0.1:\(port)/"))
    }

    /// The file of the CA that signed the certificates (all but `untrusted` and `selfSigned`).
    func caFile() throws -> String { try #require(details["ca"]) }

    /// The servers of the suite that is running.
    @TaskLocal static var current: TLSServers?

    /// The running servers; fails the test when the suite has none.
    static func require() throws -> TLSServers {
        try #require(current, "this suite needs the .tlsServers trait")
    }
}

/// Gives a suite the TLS servers, starting them if no suite has yet.
struct TLSServersTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await TestServer.shared("tls_server.py")
        try await TLSServers.$current.withValue(TLSServers(startLine: server.startLine)) { try await function() }
    }
}

extension Trait where Self == TLSServersTrait {
    /// Runs the suite against the TLS servers on 127.0.0.1.
    static var tlsServers: Self { TLSServersTrait() }
}
