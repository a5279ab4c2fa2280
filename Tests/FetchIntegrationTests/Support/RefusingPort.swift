#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 that refuses every connection for as long as this value is held.
///
/// The socket is bound but never listens: the kernel answers a connection attempt with a
/// reset, and no other socket (another test's server, say) can be given the same port
/// while it stays bound. A port that is bound, read and closed again gives no such promise:
/// in a parallel run the kernel may hand it to the next listener.
final class RefusingPort: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The port number the kernel chose.
    let port: Int
    private let descriptor: Int32

    /// Binds a socket to port 0 on 127.0.0.1 and keeps it bound, not listening.
    /// - Throws: ``Failure`` when the socket cannot be made or bound.
    init() throws {
        #if canImport(Glibc)
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socketDescriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socketDescriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let status = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketDescriptor, generic, length) == 0 ? getsockname(socketDescriptor, generic, &length) : -1
            }
        }
        guard status == 0 else {
            let failure = Failure(description: "bind() or getsockname() failed: errno \(errno)")
            close(socketDescriptor)
            throw failure
        }
        descriptor = socketDescriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        close(descriptor)
    }
}
