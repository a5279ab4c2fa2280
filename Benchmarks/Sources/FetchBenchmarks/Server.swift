import Foundation

/// The loopback nginx that run.sh starts: where it listens, how many connections it has
/// accepted, and how much CPU its worker has used.
struct Server: Sendable {
    /// The port nginx listens on, on 127.0.0.1.
    let port: Int
    /// The nginx master's process id, when known.
    let masterPID: Int32?

    /// The path of the stub_status page in run.sh's nginx configuration.
    static let statusPath = "/nginx-status"

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// The server's count of accepted TCP connections, read on a connection of its own
    /// (which the count includes: subtract one per read when comparing two reads).
    func acceptedConnections() -> Int? {
        // stub_status answers "Active connections: N \nserver accepts handled requests\n A H R \n...".
        guard let reply = LoopbackSocket.get(port: port, path: Self.statusPath),
            let header = reply.range(of: "server accepts handled requests")
        else { return nil }
        let numbers = reply[header.upperBound...].split(whereSeparator: \.isWhitespace)
        return numbers.first.flatMap { Int($0) }
    }

    /// Connections accepted between two reads of ``acceptedConnections()``, not counting
    /// the second read's own connection.
    static func accepted(from before: Int?, to after: Int?) -> Int? {
        guard let before, let after else { return nil }
        return after - before - 1
    }

    /// CPU seconds used so far by nginx's worker processes.
    func workerCPUSeconds() -> Double? {
        guard let masterPID else { return nil }
        let workers = ProcessStats.children(of: masterPID)
        guard !workers.isEmpty else { return nil }
        return workers.compactMap { ProcessStats.cpuSeconds(ofProcess: $0) }.reduce(0, +)
    }
}
