#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 that nothing listens on: bound by the kernel's choice, read, then closed.
enum UnusedPort {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Binds a socket to port 0 on 127.0.0.1, reads the port the kernel chose and closes it.
    /// - Throws: ``Failure`` when the socket cannot be made or bound.
    static func make() throws -> Int {
        #if canImport(Glibc)
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let socketDescriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socketDescriptor >= 0 else { throw Failure(description: "socket() failed: errno \(errno)") }
        defer { close(socketDescriptor) }
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
        guard status == 0 else { throw Failure(description: "bind() or getsockname() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
