import Fetch

extension [String: String] {
    /// The field named `name`, compared without case.
    func field(named name: String) -> (key: String, value: String)? {
        first { $0.key.equalsIgnoringASCIICase(name) }
    }
}

extension URLRequest {
    func header(_ name: String) -> String? {
        allHTTPHeaderFields?.field(named: name)?.value
    }
}

extension String {
    /// Byte by byte: header names are ASCII, and Foundation's comparison costs more than a cache hit.
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        return utf8.count == other.utf8.count && utf8.elementsEqual(other.utf8) { lowered($0) == lowered($1) }
    }
}

extension StringProtocol {
    /// Whether the text is one or more ASCII digits and nothing else.
    var isASCIIDigits: Bool { !isEmpty && utf8.allSatisfy { (0x30...0x39).contains($0) } }
}

extension URL {
    /// Whether `other` has the same origin: scheme, host and port, without case, with default ports filled in.
    func isSameOrigin(as other: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?)? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            return (scheme, host, url.port ?? ["http": 80, "https": 443][scheme])
        }
        guard let mine = origin(self), let theirs = origin(other) else { return false }
        return mine == theirs
    }
}
