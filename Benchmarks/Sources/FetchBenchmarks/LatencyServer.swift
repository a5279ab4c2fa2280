import Foundation

/// The test suite's HTTP/2 server (Tests/FetchIntegrationTests/Servers/http2_server.py),
/// started for the latency cases, and how a child process comes to trust its certificate.
final class LatencyServer {
    /// The ports: `h2` (TLS, h2 and http/1.1 by ALPN), `http1` (TLS, http/1.1 only) and
    /// `plain` (no TLS).
    let ports: [String: Int]
    /// A command that runs the rest of its arguments in a mount namespace of its own where
    /// the system trust store is the system's bundle plus the server's CA: libcurl on Linux
    /// trusts only that file, so every client of a round trusts the server the same way, and
    /// pays the same cost of reading the whole bundle for each new TLS connection.
    let launcher: [String]
    private let process: Process
    private let input: Pipe
    private let bundle: URL

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the server with `python3` and waits for its first line.
    init(script: String) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
            let ca = object["ca"] as? String
        else {
            process.terminate()
            throw Failure(
                description: "\(script) did not start (\(String(decoding: line, as: UTF8.self))): "
                    + "python3 -m pip install -r Tests/requirements.txt")
        }
        ports = object.compactMapValues { $0 as? Int }
        bundle = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fetch-bench-ca-\(UUID().uuidString).crt")
        let system = try Data(contentsOf: URL(fileURLWithPath: "/etc/ssl/certs/ca-certificates.crt"))
        try (system + Data(contentsOf: URL(fileURLWithPath: ca))).write(to: bundle)
        launcher = [
            "/usr/bin/unshare", "--user", "--map-root-user", "--mount", "/bin/sh", "-c",
            #"mount --bind "$0" /etc/ssl/certs/ca-certificates.crt && exec "$@""#, bundle.path,
        ]
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: bundle)
    }

    /// What the server counted for the requests tagged `tag`.
    struct Stats: Codable, Sendable {
        var requests: Int
        var peakInFlight: Int
        /// Connections the tag's requests came on.
        var connections: Int
        /// Those of them first used by the tag.
        var opened: Int
        /// Requests per HTTP version ("2", "1.1").
        var protocols: [String: Int]
    }

    func stats(tag: String) throws -> Stats {
        guard let port = ports["plain"], let reply = LoopbackSocket.get(port: port, path: "/stats?tag=\(tag)"),
            let body = reply.components(separatedBy: "\r\n\r\n").last
        else { throw Failure(description: "no stats for \(tag)") }
        return try JSONDecoder().decode(Stats.self, from: Data(body.utf8))
    }
}
