import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch
import Synchronization

/// One latency measurement for one client, in a process of its own: `count` GETs sent at
/// once to an origin that answers each after `delay` milliseconds, timed from the first send
/// to the last completion. Each client is as a new user makes it: `Session()` and
/// `URLSession(configuration: .default)`.
enum LatencyRound {
    /// Whether the measured requests find a connection open.
    enum Start: String, Codable, Sendable {
        /// Nothing was sent to the origin before.
        case cold
        /// As many quick requests as will be measured ran first, all at once.
        case warm
    }

    /// What one round measured on the client's side.
    struct Result: Codable, Sendable {
        /// Wall time from the first send to the last completion.
        var seconds: Double
        /// User plus system CPU time over the same span.
        var cpuSeconds: Double
        /// Requests that failed or got an unexpected response, and the first of them.
        var failures: Int
        var firstFailure: String?
    }

    /// Runs one round through `side` (`fetch`, `raw`, `fetch@N`: a session whose
    /// `maximumConnectionsPerHost` is N, or `fetch-layers`: `FullStack.plain(over:)` a session): GETs of `base`/delay tagged `tag` (the warm-up's
    /// tag is `tag` followed by `-warm`).
    static func run(side: String, base: String, count: Int, delay: Int, start: Start, tag: String) -> Result {
        let send = sender(side: side)
        kept.withLock { $0 = send }
        var failures: [String] = []
        if start == .warm {
            failures += sendAll(count, url: "\(base)/delay?ms=0&tag=\(tag)-warm", through: send)
        }
        let cpuStart = ProcessStats.cpuSeconds()
        let started = ContinuousClock.now
        failures += sendAll(count, url: "\(base)/delay?ms=\(delay)&tag=\(tag)", through: send)
        return Result(
            seconds: (ContinuousClock.now - started).seconds, cpuSeconds: ProcessStats.cpuSeconds() - cpuStart,
            failures: failures.count, firstFailure: failures.first)
    }

    /// The client of this process, kept until the process exits. A `Session` released as the
    /// process exits can crash it on Linux: its URLSession's libcurl handles are freed on a
    /// worker thread while `exit` runs OpenSSL's own cleanup. A raw URLSession that is never
    /// invalidated is never released, so both sides end the same way.
    private static let kept = Mutex<Sender?>(nil)

    /// Sends one GET and calls back with `nil` for a 200 with body "ok", else what differs.
    typealias Sender = @Sendable (_ url: URL, _ done: @escaping @Sendable (String?) -> Void) -> Void

    /// Sends `count` GETs of `url` at once and waits for every completion.
    /// - Returns: the failures.
    private static func sendAll(_ count: Int, url: String, through send: Sender) -> [String] {
        let url = URL(string: url)!
        return FailureList.sendAll(count) { send(url, $0) }
    }

    private static func sender(side: String) -> Sender {
        switch side {
        case "raw":
            let session = URLSession(configuration: .default)
            return { url, done in
                session.dataTask(with: url) { data, response, error in
                    done(error.map { "\($0)" } ?? check((response as? HTTPURLResponse)?.statusCode, data ?? Data()))
                }.resume()
            }
        default:
            var configuration = Session.Configuration()
            if let limit = side.split(separator: "@").last.flatMap({ Int($0) }) {
                configuration.maximumConnectionsPerHost = limit
            }
            let session = Session(configuration: configuration)
            let performer: any RequestPerforming = side == "fetch-layers" ? FullStack.plain(over: session) : session
            return { url, done in
                performer.perform(BasicRequest(url: url)) { result in
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
