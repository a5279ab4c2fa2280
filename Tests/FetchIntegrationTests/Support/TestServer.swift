import Foundation
import Fetch
import TestSupport

/// A Python server on 127.0.0.1 that the tests start: httpbin, the fault server, the transfer
/// server or the TLS servers.
///
/// Each script runs once per test process, started by the first suite that needs it and
/// shared by every suite after: all their requests carry a tag of their own, so no test
/// reads another's log. A child process of ``IsolatedRun`` uses its parent's servers. A server
/// is never stopped: the script prints its port (or a JSON object with `port`) on the first
/// line and exits when its standard input closes, which happens when the test process ends,
/// even if a test crashes.
final class TestServer: Sendable {
    let port: Int
    /// The first line the script printed: its port, or a JSON object with `port` and more.
    let startLine: String
    /// The script's standard input, open as long as this process runs; `nil` for a parent's.
    private let input: Pipe?

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The servers started so far, by script and copy.
    private static let started = Locked([String: Task<TestServer, any Error>]())
    /// The first lines of the servers running so far, by script and copy, for child processes.
    static let running = Locked([String: String]())

    /// The server that `Servers/<script>` runs in this process, started on first use; `copy`
    /// names another instance of the same script, on a port of its own.
    /// - Throws: ``StartFailure`` saying how to install what is missing.
    static func shared(_ script: String, copy: Int = 0) async throws -> TestServer {
        let start = started.withLock { started in
            let key = "\(script) \(copy)"
            if let start = started[key] { return start }
            // Starting waits for the script's first line: on a thread of its own, never one
            // of the Swift concurrency pool, which every other test needs meanwhile.
            let start = Task {
                if let line = IsolatedRun.parentServers[key] { return try TestServer(script: script, startLine: line) }
                let server = try await offThePool { try TestServer(script: script) }
                running.withLock { $0[key] = server.startLine }
                return server
            }
            started[key] = start
            return start
        }
        return try await start.value(within: .seconds(60), "starting \(script)")
    }

    /// Starts `Servers/<script>` with `python3`, and waits for its first line.
    private convenience init(script: String) throws {
        let servers = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Servers")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", servers.appendingPathComponent(script).path]
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONUNBUFFERED"] = "1"
        process.environment = environment
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        do {
            ChildDescriptors.closeInChildren()
            try process.run()
        } catch {
            throw StartFailure(
                description: "cannot start python3 (\(error)): install Python 3, then "
                    + "run python3 -m pip install -r Tests/requirements.txt")
        }
        let line = Self.readLine(output.fileHandleForReading).trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            try self.init(script: script, startLine: line, input: input)
        } catch {
            process.terminate()
            throw error
        }
    }

    /// The server of `script` that printed `startLine`; `input` keeps it running.
    private init(script: String, startLine line: String, input: Pipe? = nil) throws {
        guard let port = Int(line) ?? Self.details(in: line)?["port"] as? Int else {
            throw StartFailure(
                description: "\(script) did not start: \(line.isEmpty ? "no output" : line). "
                    + "Install Python 3, then the test servers' packages: python3 -m pip install -r Tests/requirements.txt"
            )
        }
        self.port = port
        self.startLine = line
        self.input = input
        _ = Self.loopbackPastProxies
    }

    /// `http://127.0.0.1:<port>` followed by `path`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The JSON object `line` holds, or `nil` when it holds none.
    static func details(in line: String) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else { return nil }
        return object as? [String: Any]
    }

    private static func readLine(_ handle: FileHandle) -> String {
        var bytes = Data()
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
            if chunk.contains(UInt8(ascii: "\n")) { break }
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    /// libcurl sends even 127.0.0.1 through `http_proxy` unless `no_proxy` names it. Set
    /// once, with the first server: `setenv` while libcurl threads read the environment is
    /// unsafe, so it is not repeated for every server a test starts.
    private static let loopbackPastProxies: Void = {
        setenv("no_proxy", "127.0.0.1,localhost", 1)
        setenv("NO_PROXY", "127.0.0.1,localhost", 1)
    }()
}
