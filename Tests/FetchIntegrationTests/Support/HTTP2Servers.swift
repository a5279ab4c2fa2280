import Foundation
import Testing
import Fetch

/// The HTTP/2 servers on 127.0.0.1 (Servers/http2_server.py): one TLS port offering h2 and
/// http/1.1 by ALPN, one offering http/1.1 only, one plain-HTTP port, and a CA made when they
/// start. They count, per tag, the requests in flight at once and the connections used.
struct HTTP2Servers: Sendable {
    /// The ports and `ca` as the script printed them.
    let startLine: String
    private let ports: [String: Int]
    /// The file of the CA that signed the servers' certificate.
    let caFile: String

    init(startLine: String) throws {
        let object = try #require(TestServer.details(in: startLine), "not the HTTP/2 servers' start line: \(startLine)")
        self.startLine = startLine
        ports = object.compactMapValues { $0 as? Int }
        caFile = try #require(object["ca"] as? String)
    }

    /// The ports: `h2` (TLS, h2 and http/1.1), `http1` (TLS, http/1.1 only), `plain`.
    enum Port: String, Sendable {
        case h2, http1, plain
    }

    /// `/delay` on `port`: answered after `milliseconds`, counted under `tag`; with `until`,
    /// the wait starts once that many requests of the tag have been in flight at once (or
    /// after 10 s). With `holdingBodies`, each head is sent then and each body only once
    /// ``release(_:)`` is called for the tag (or after 10 s more). With `gated`, nothing is
    /// answered until ``release(_:)`` (or 10 s), and each answer then comes after `milliseconds`,
    /// but for the first `free` requests of the tag, which are answered after `milliseconds`.
    func delay(
        _ port: Port, tag: String, milliseconds: Int = 0, until: Int = 0, holdingBodies: Bool = false,
        gated: Bool = false, free: Int = 0
    ) throws -> URL {
        let number = try #require(ports[port.rawValue])
        let scheme = port == .plain ? "http" : "https"
        let query =
            "ms=\(milliseconds)&until=\(until)&hold=\(holdingBodies ? 1 : 0)&gate=\(gated ? 1 : 0)&free=\(free)&tag=\(tag)"
        return try #require(URL(string: "\(scheme)://127.0.0.1:\(number)/delay?\(query)"))
    }

    /// Lets the answers or bodies held for `tag` go.
    func release(_ tag: String) async throws {
        let port = try #require(ports["plain"])
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/release?tag=\(tag)"))
        _ = try await Session().response(for: BasicRequest(url: url))
    }

    /// What the server counted for the requests tagged `tag`.
    struct Stats: Decodable, Sendable {
        var requests: Int
        var peakInFlight: Int
        /// Requests of the tag the server holds now.
        var inFlight: Int
        /// Distinct connections the tag's requests came on.
        var connections: Int
        /// Requests per HTTP version: "2", "1.1".
        var protocols: [String: Int]
    }

    /// Asks the plain port for `tag`'s counts.
    func stats(_ tag: String) async throws -> Stats {
        let port = try #require(ports["plain"])
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/stats?tag=\(tag)"))
        let response = try await Session().response(for: BasicRequest(url: url))
        return try JSONDecoder().decode(Stats.self, from: response.body)
    }

    /// The servers of the suite that is running.
    @TaskLocal static var current: HTTP2Servers?

    /// The running servers; fails the test when the suite has none.
    static func require() throws -> HTTP2Servers {
        try #require(current, "this suite needs the .http2Servers trait")
    }
}

/// Gives a suite the HTTP/2 servers, starting them if no suite has yet (a child process of
/// ``IsolatedRun`` uses its parent's).
struct HTTP2ServersTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await TestServer.shared("http2_server.py")
        try await HTTP2Servers.$current.withValue(HTTP2Servers(startLine: server.startLine)) { try await function() }
    }
}

extension Trait where Self == HTTP2ServersTrait {
    /// Runs the suite against the HTTP/2 servers on 127.0.0.1.
    static var http2Servers: Self { HTTP2ServersTrait() }
}

extension IsolatedRun {
    /// A launcher for ``run(_:faultServer:environment:launcher:timeout:)`` whose child trusts
    /// `caFile` alone: a user and mount namespace of its own, where the file is bound over the
    /// system bundle (libcurl on Linux reads only that bundle: no environment variable changes it).
    static func trusting(caFile: String) -> [String] {
        [
            "/usr/bin/unshare", "--user", "--map-root-user", "--mount", "/bin/sh", "-c",
            #"mount --bind "$0" /etc/ssl/certs/ca-certificates.crt && exec "$@""#, caFile,
        ]
    }
}
