import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch
import TestSupport

/// What the fault server logged for one request (or one aborted transfer) with a tag.
struct SeenRequest: Decodable {
    var method: String?
    var target: String?
    var headers: [String: [String]]?
    var body: String?
    /// Set when the server stopped sending because the client went away: the path.
    var aborted: String?
    /// Set when the server sent a whole body: the path.
    var completed: String?
    /// For an aborted or completed transfer, how many body bytes were sent.
    var sent: Int?
    /// For some transfers (/long-line), the client's port.
    var port: Int?

    /// The first value of header `name` (lowercase) as the server received it.
    func header(_ name: String) -> String? { headers?[name]?.first }
}

/// What the echo behaviour of the fault server answers: the request as it arrived.
struct EchoedRequest: Decodable, Parsable {
    var method: String
    var headers: [String: [String]]
    var body: String
    var query: [String: String]

    /// The first value of header `name` (lowercase) as the server received it.
    func header(_ name: String) -> String? { headers[name]?.first }
}

/// How many connections and bytes a byte-counting listener received.
struct SinkStats: Decodable, Equatable {
    var connections: Int
    var bytes: Int
}

extension TestServer {
    /// `http://<host>:<port>` followed by `path`: `localhost` names the same server as
    /// `127.0.0.1` under another host name, for cross-origin tests.
    func url(_ path: String, host: String) -> URL {
        URL(string: "http://\(host):\(port)\(path)")!
    }

    /// Reads a bookkeeping path of the fault server as JSON.
    func bookkeeping<Value: Decodable>(_ path: String, as type: Value.Type) async throws -> Value {
        try await Session().perform(BasicRequest(url: url(path)), decoding: type, using: JSONDecoder())
    }

    /// The requests (and aborted transfers) the fault server logged with `tag`.
    func seen(tag: String) async throws -> [SeenRequest] {
        try await bookkeeping("/_seen?tag=\(tag)", as: [SeenRequest].self)
    }

    /// Opens a new byte-counting listener on the fault server and returns its port.
    func openSink() async throws -> Int {
        try await bookkeeping("/_sink", as: [String: Int].self)["port"] ?? 0
    }

    /// How many connections and bytes the listener on `port` has received.
    func sinkStats(port: Int) async throws -> SinkStats {
        try await bookkeeping("/_sink-stats?port=\(port)", as: SinkStats.self)
    }

    /// Waits until the fault server has logged `count` requests with `tag`.
    /// - Throws: ``DidNotFinish`` when it has not within 20 s.
    func waitUntilSeen(_ count: Int = 1, tag: String, file: StaticString = #filePath, line: UInt = #line)
        async throws
    {
        try await within(.seconds(20), "\(count) request(s) reaching the server", file: file, line: line) {
            while try await self.seen(tag: tag).count < count { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    /// Lets the fault server's `/gate` requests of `tag` answer.
    func openGate(tag: String) async throws {
        _ = try await bookkeeping("/_open?tag=\(tag)", as: [String: Int].self)
    }

    /// The most `/slow` requests of `group` that the server ran at once.
    func mostAtOnce(group: String) async throws -> Int {
        try await bookkeeping("/_most-at-once?group=\(group)", as: [String: Int].self)["most"] ?? 0
    }
}

/// A fresh tag for fault-server requests, so concurrent tests read only their own log.
func uniqueTag() -> String {
    UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
}
