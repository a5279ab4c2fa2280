import Foundation

/// A Python server on 127.0.0.1 that the tests start and stop: httpbin, the fault server or
/// the TLS servers.
///
/// The script prints its port (or a JSON object with `port`) on the first line and exits when its standard input closes,
/// so a server never outlives the test process even if a test crashes.
final class TestServer: @unchecked Sendable {
    // `lock` guards `process` and `input` while stopping; `port` never changes.
    private let lock = NSLock()
    private var process: Process?
    private var input: Pipe?
    let port: Int
    /// The first line the script printed: its port, or a JSON object with `port` and more.
    let startLine: String

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `Servers/<script>` with `python3`.
    /// - Throws: ``StartFailure`` saying how to install what is missing.
    init(script: String) throws {
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
            try process.run()
        } catch {
            throw StartFailure(
                description: "cannot start python3 (\(error)): install Python 3, then "
                    + "run python3 -m pip install -r Tests/requirements.txt")
        }
        let line = Self.readLine(output.fileHandleForReading).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = Int(line) ?? Self.details(in: line)?["port"] as? Int else {
            process.terminate()
            throw StartFailure(
                description: "\(script) did not start: \(line.isEmpty ? "no output" : line). "
                    + "Install Python 3, then the test servers' packages: python3 -m pip install -r Tests/requirements.txt"
            )
        }
        self.port = port
        self.startLine = line
        self.process = process
        self.input = input
        _ = Self.loopbackPastProxies
    }

    deinit { stop() }

    /// `http://127.0.0.1:<port>` followed by `path`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Stops the server and waits for it to exit.
    func stop() {
        let (process, input) = lock.withLock { () -> (Process?, Pipe?) in
            defer {
                self.process = nil
                self.input = nil
            }
            return (self.process, self.input)
        }
        guard let process else { return }
        try? input?.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
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
