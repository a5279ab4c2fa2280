import Foundation

/// Measures the loopback server alone with wrk, to show it is not what limits the clients.
enum ServerCheck {
    /// wrk's requests per second for `workload`, or `nil` when wrk is not installed or fails.
    static func requestsPerSecond(_ workload: Workload, server: Server, scratch: URL) -> Double? {
        var arguments = ["wrk", "-t1", "-c\(workload.inFlight)", "-d3s"]
        if workload.method == "POST" {
            let script = scratch.appendingPathComponent("post.lua")
            let lua = """
                wrk.method = "POST"
                wrk.body = string.rep("a", \(workload.bodySize))
                wrk.headers["Content-Type"] = "application/octet-stream"
                """
            do { try lua.write(to: script, atomically: true, encoding: .utf8) } catch { return nil }
            arguments += ["-s", script.path]
        }
        arguments.append(server.url(workload.path).absoluteString)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") })
        else { return nil }
        return Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces))
    }
}
