import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A loopback HTTP/1.1 server for the idle-CPU case: `/hold` answers after a fixed time,
/// any other path at once; connections are kept alive. One blocked thread per connection,
/// so the server itself uses no CPU while it holds, and it runs in the parent process, so
/// none of its time counts against the client being measured.
final class IdleCPUServer: @unchecked Sendable {
    // `lock` guards `accepted`; everything else is immutable.
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    /// How long `/hold` waits before answering.
    let hold: Duration
    private let listener: Int32
    private let lock = NSLock()
    private var accepted = 0

    /// The server's failure to start.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Listens on a free port of 127.0.0.1 and starts accepting.
    init(hold: Duration) throws {
        self.hold = hold
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: "socket() failed: \(errno)") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 1024) == 0
                    && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "cannot listen on 127.0.0.1: \(errno)") }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// TCP connections accepted so far.
    var acceptedConnections: Int { lock.withLock { accepted } }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            lock.withLock { accepted += 1 }
            Thread.detachNewThread { [self] in serve(connection) }
        }
    }

    /// Answers the requests of one connection (bodiless GETs) until the client closes it, or
    /// after one HTTP/1.0 request.
    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while true {
            while pending.firstRange(of: end) == nil {
                let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                pending.append(contentsOf: buffer[0..<count])
            }
            let head = pending.firstRange(of: end)!
            let requestLine =
                String(decoding: pending[..<head.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")[0]
            pending.removeSubrange(..<head.upperBound)
            let path = requestLine.split(separator: " ").dropFirst().first ?? ""
            var body = "ok"
            if path.hasPrefix("/hold") {
                Thread.sleep(forTimeInterval: hold.seconds)
            } else if path == IdleCPU.connectionsPath {
                body = "\(acceptedConnections)"
            }
            let reply = Array(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
            let sent = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == reply.count, !requestLine.hasSuffix("HTTP/1.0") else { return }
        }
    }
}
