import Foundation
import Testing

/// Runs one test of this test binary again in a child process of its own, for what can only
/// be measured per process: peak memory, or the files a process leaves under `HOME`.
///
/// The test to run in the child is marked `.enabled(if: IsolatedRun.isChild(named:))`, so the
/// ordinary run skips it; the parent test starts the child and checks how it ended. The child
/// uses the servers the parent runs (see ``TestServer``) rather than starting its own, and
/// reaches the fault server it is given through ``faultServer(path:)``.
enum IsolatedRun {
    private static let testVariable = "FETCH_ISOLATED_TEST"
    private static let serverVariable = "FETCH_ISOLATED_FAULT_SERVER"
    private static let serversVariable = "FETCH_ISOLATED_SERVERS"

    /// In a child, the first lines of the servers its parent runs, by script and copy.
    static let parentServers: [String: String] = {
        guard let json = ProcessInfo.processInfo.environment[serversVariable],
            let servers = try? JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        else { return [:] }
        return servers
    }()

    /// Whether this process is a child started to run the test called `name`.
    static func isChild(named name: String) -> Bool {
        ProcessInfo.processInfo.environment[testVariable] == name
    }

    /// In a child, `path` on the parent's fault server.
    /// - Throws: when this process was not started by ``run(_:faultServer:environment:timeout:)``.
    static func faultServer(path: String) throws -> URL {
        let base = try #require(ProcessInfo.processInfo.environment[serverVariable], "not an isolated run")
        return try #require(URL(string: base + path))
    }

    /// What the child did.
    struct Outcome {
        /// The child's exit status: 0 when its test passed.
        var status: Int32
        /// Everything the child wrote to standard output and error.
        var output: String

        /// The lines of output that contain `marker`, from the marker on (without terminal colours).
        func lines(from marker: String) -> [String] {
            output.split(separator: "\n").compactMap { line in
                line.range(of: marker).map { String(line[$0.lowerBound...]) }
            }
        }
    }

    /// Runs the test `name` (a Swift Testing filter, e.g. `"IsolatedLimitTests/peak"`) in a child
    /// process that can reach `faultServer`, with `environment` changed (a `nil` value removes a
    /// variable), waiting at most `timeout`. With a `launcher` (a command and its arguments),
    /// the launcher runs and is handed the test binary and its arguments to run.
    /// - Throws: when the child cannot be started or does not end in time.
    static func run(
        _ name: String, faultServer: TestServer, environment: [String: String?] = [:],
        launcher: [String] = [], timeout: Duration = .seconds(120)
    ) async throws -> Outcome {
        let process = Process()
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let arguments = ["--testing-library", "swift-testing", "--filter", name]
        if let command = launcher.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = launcher.dropFirst() + [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        // A temporary folder of its own, so a test that checks what Fetch leaves there sees no
        // file of the tests running beside it (in this process or any other).
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("isolated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temporary) }
        var variables = ProcessInfo.processInfo.environment
        variables["TMPDIR"] = temporary.path
        variables[testVariable] = name
        variables[serverVariable] = "http://127.0.0.1:\(faultServer.port)"
        variables[serversVariable] = String(
            decoding: try JSONEncoder().encode(TestServer.running.withLock { $0 }), as: UTF8.self)
        for (key, value) in environment { variables[key] = value }
        process.environment = variables
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        ChildDescriptors.closeInChildren()
        try process.run()
        // Read while the child runs, so it never blocks on a full pipe.
        let reading = pipe.fileHandleForReading
        async let output = offThePool { reading.readDataToEndOfFile() }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning {
            guard clock.now < deadline else {
                process.terminate()
                throw ChildTimedOut(name: name)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let printed = try await output
        let outcome = Outcome(status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self))
        // A filter that matches nothing passes with no test run: that must not pass here.
        guard outcome.output.contains("Test run with"), !outcome.output.contains("Test run with 0 tests") else {
            throw NothingRan(name: name, output: outcome.output)
        }
        return outcome
    }

    struct NothingRan: Error, CustomStringConvertible {
        let name: String
        let output: String
        var description: String { "the isolated run of \(name) ran no test: \(output.suffix(2000))" }
    }

    struct ChildTimedOut: Error, CustomStringConvertible {
        let name: String
        var description: String { "the isolated run of \(name) did not end in time" }
    }
}
