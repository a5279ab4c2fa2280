import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// One idle-CPU measurement for one client, in a process of its own so that the CPU time
/// is that client's alone: `waiting` requests sent at once to a server that holds each
/// response, and the process's CPU time from the first send to the last completion.
enum IdleCPURound {
    /// Whether the waiting requests open their connections or find them open.
    enum Start: String, Codable, Sendable, CaseIterable {
        /// Each waiting request is the first on a new connection.
        case cold
        /// As many quick requests as will wait run first, all at once, so that the waiting
        /// requests can reuse the connections those leave open (libcurl keeps only a few of
        /// them idle: the new connections column says how many were opened anyway).
        case warm
    }

    /// What one round measured.
    struct Result: Codable, Sendable {
        /// User plus system CPU time from the first send to the last completion.
        var cpuSeconds: Double
        /// Wall time over the same span.
        var seconds: Double
        /// TCP connections the server accepted during the waiting requests.
        var connections: Int?
        /// Requests that failed or got an unexpected response, and the first of them.
        var failures: Int
        var firstFailure: String?

        /// CPU seconds per wall second: 1 is one core busy all the time.
        var cores: Double { cpuSeconds / seconds }
    }

    /// Sends one GET of `path` and calls back with `nil` for a 200 with body "ok", else what differs.
    typealias Sender = @Sendable (_ path: String, _ done: @escaping @Sendable (String?) -> Void) -> Void

    /// Runs one round through `side` against the server on `port`, with
    /// `maximumConnectionsPerHost` at `limit` for both clients.
    static func run(side: Side, port: Int, waiting: Int, limit: Int, start: Start) -> Result {
        let send = sender(side: side, port: port, configuration: sharedConfiguration(maximumConnections: limit))
        var failures: [String] = []
        if start == .warm {
            failures += sendAll(waiting, path: "/fast", through: send)
        }
        let before = acceptedConnections(port: port)
        let cpuStart = ProcessStats.cpuSeconds()
        let started = ContinuousClock.now
        failures += sendAll(waiting, path: "/hold", through: send)
        let seconds = (ContinuousClock.now - started).seconds
        let cpu = ProcessStats.cpuSeconds() - cpuStart
        let after = acceptedConnections(port: port)
        return Result(
            cpuSeconds: cpu, seconds: seconds, connections: Server.accepted(from: before, to: after),
            failures: failures.count, firstFailure: failures.first)
    }

    /// Sends `count` requests for `path` at once and waits for every completion.
    /// - Returns: the failures.
    private static func sendAll(_ count: Int, path: String, through send: Sender) -> [String] {
        FailureList.sendAll(count) { send(path, $0) }
    }

    /// The server's count of accepted connections, asked on a connection of its own.
    private static func acceptedConnections(port: Int) -> Int? {
        LoopbackSocket.get(port: port, path: IdleCPU.connectionsPath)
            .flatMap { $0.components(separatedBy: "\r\n\r\n").last }
            .flatMap { Int($0) }
    }

    private static func sender(side: Side, port: Int, configuration: Session.Configuration) -> Sender {
        let base = "http://127.0.0.1:\(port)"
        switch side {
        case .raw:
            let session = URLSession(configuration: .mirroring(configuration))
            return { path, done in
                let request = URLRequest(
                    raw: URL(string: base + path)!, method: "GET", body: nil, configuration: configuration)
                session.dataTask(with: request) { data, response, error in
                    done(error.map { "\($0)" } ?? check((response as? HTTPURLResponse)?.statusCode, data ?? Data()))
                }.resume()
            }
        default:
            let session = Session(configuration: configuration)
            return { path, done in
                session.perform(BasicRequest(url: URL(string: base + path)!)) { result in
                    switch result {
                    case .success(let response): done(check(response.status, response.body))
                    case .failure(let error): done("\(error)")
                    }
                }
            }
        }
    }

    private static func check(_ status: Int?, _ body: Data) -> String? {
        status == 200 && body == Data("ok".utf8) ? nil : "status \(status ?? 0), \(body.count) bytes"
    }
}

/// Failures collected from completions on any thread.
final class FailureList: @unchecked Sendable {
    // `lock` guards `items`.
    private let lock = NSLock()
    private var items: [String] = []

    func append(_ failure: String) { lock.withLock { items.append(failure) } }
    var all: [String] { lock.withLock { items } }

    /// Calls `send` `count` times at once, each with the completion it calls back with `nil`
    /// or what went wrong, and waits for every completion.
    /// - Returns: the failures.
    static func sendAll(_ count: Int, _ send: (@escaping @Sendable (String?) -> Void) -> Void) -> [String] {
        let group = DispatchGroup()
        let failures = FailureList()
        for _ in 0..<count {
            group.enter()
            send { failure in
                if let failure { failures.append(failure) }
                group.leave()
            }
        }
        group.wait()
        return failures.all
    }
}
