import Foundation

/// Which processes hold a loopback connection open, for a test whose server saw a transfer go on that the client
/// had ended: this process (the transfer was not stopped) or a child (it inherited the socket).
enum ConnectionHolders {
    /// The processes holding the IPv4 TCP socket whose local port is `port`, as `pid (command)` with this process
    /// named so; what was found when none could be read (Linux only).
    static func describe(localPort port: Int?) -> String {
        #if os(Linux)
        guard let port else { return "the server recorded no client port" }
        let table = procFile("/proc/net/tcp") ?? ""
        // Each line: `sl local rem st ... inode`, addresses as hex `ADDR:PORT`.
        let inodes = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1].hasSuffix(":" + String(format: "%04X", port)) else { return nil }
            return String(fields[9])
        }
        guard !inodes.isEmpty else { return "no socket has local port \(port) any more: no child held it" }
        let own = ProcessInfo.processInfo.processIdentifier
        var holders: [String] = []
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(pid) != nil {
            let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
            let holds = descriptors.contains { descriptor in
                let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"))
                return inodes.contains { link == "socket:[\($0)]" }
            }
            guard holds else { continue }
            let command = (procFile("/proc/\(pid)/cmdline") ?? "").replacingOccurrences(of: "\0", with: " ").prefix(160)
            holders.append(Int32(pid) == own ? "this process (\(pid))" : "\(pid) (\(command))")
        }
        return "port \(port), sockets \(inodes), held by: \(holders.isEmpty ? ["none found"] : holders)"
        #else
        return "not looked up on this system"
        #endif
    }
}
