/// The rules every outgoing request must meet before a byte is sent, each broken one an
/// ``FetchError/Code-swift.enum/invalidRequest``: URLSession on Linux puts a header name or method
/// holding CR/LF on the wire as written (request smuggling), silently drops a value holding CR/LF,
/// and lets a caller-set `Content-Length` disagree with the body.
package enum HeaderRules {
    /// Header fields the transport sets itself; a caller setting one is refused.
    package static let reservedNames: Set<String> = ["content-length", "host", "transfer-encoding", "connection"]

    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

    private static func isReserved(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4, 10, 14, 17: return reservedNames.contains(name.lowercased())
        default: return false
        }
    }

    /// Whether `text` is an RFC 9110 token: one or more of `A-Z a-z 0-9 !#$%&'*+-.^_`|~`.
    package static func isToken(_ text: String) -> Bool {
        // Byte by byte: every byte of a non-ASCII character is 0x80 or more, so it fails.
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return true
                default:
                    return tokenSymbols.contains(byte)
                }
            }
    }

    /// Checks one header field.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` for a name that is not a token or
    ///   that the transport owns, or a control character but tab in the value.
    package static func validate(name: String, value: String) throws {
        guard isToken(name) else {
            throw FetchError(.invalidRequest, reason: "header name \(name.debugDescription) is not a valid token")
        }
        try validate(value: value, of: name)
        if isReserved(name) {
            throw FetchError(
                .invalidRequest, reason: "header \(name) is set by the transport and cannot be set by hand")
        }
    }

    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` for a control character but tab in `value`.
    static func validate(value: String, of name: String) throws {
        // Bytes below 0x80 are ASCII characters in UTF-8, so a byte check finds the same ones.
        if let byte = value.utf8.first(where: { ($0 < 0x20 && $0 != UInt8(ascii: "\t")) || $0 == 0x7F }) {
            let character = [0x0D: "CR", 0x0A: "LF", 0x00: "NUL", 0x7F: "DEL"][byte] ?? "byte \(byte)"
            throw FetchError(
                .invalidRequest, reason: "header \(name) has a control character (\(character)) in its value")
        }
    }

    /// Checks a whole `URLRequest`: scheme, host, method, every header, and no body on GET or HEAD.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` naming the first problem.
    package static func validate(_ urlRequest: URLRequest) throws {
        let method = HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET")
        let url = urlRequest.url
        func fail(_ reason: String) -> FetchError {
            FetchError(.invalidRequest, reason: reason, method: method, url: url)
        }
        guard let url else { throw fail("the request has no URL") }
        if !isPlainHTTP(url.absoluteString) { try validate(url, fail) }
        guard isToken(method.rawValue) else {
            throw fail("method \(method.rawValue.debugDescription) is not a valid token")
        }
        for (name, value) in urlRequest.allHTTPHeaderFields ?? [:] {
            try FetchError.naming(method: method, url: url) { try validate(name: name, value: value) }
        }
        let hasBody = !(urlRequest.httpBody?.isEmpty ?? true) || urlRequest.httpBodyStream != nil
        if hasBody && (method == .get || method == .head) {
            throw fail("a \(method.rawValue) request cannot have a body")
        }
    }

    private static func validate(_ url: URL, _ fail: (String) -> FetchError) throws {
        guard url.scheme != nil else {
            throw fail(
                "the URL \(url.relativeString.debugDescription) is relative: add a BaseURL enhancer "
                    + "(.enhanced(by: BaseURL(\"https://api.example.com\"))) above this performer, or make the URL absolute"
            )
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw fail("only http and https URLs can be requested")
        }
        guard let host = url.host, !host.isEmpty else { throw fail("the URL has no host") }
        if let port = url.port, !(1...65535).contains(port) { throw fail("port \(port) is out of range") }
    }

    /// Whether the URL `text` plainly passes `validate(_:_:)`, read from the text, cheaper than Foundation's getters:
    /// `http(s)://`, a host of letters, digits, `.-_`, an optional port in 1...65535, then the end, `/`, `?` or `#`.
    static func isPlainHTTP(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        for expected in "http".utf8 {
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        var next = bytes.next()
        if let byte = next, byte | 0x20 == UInt8(ascii: "s") { next = bytes.next() }
        guard next == UInt8(ascii: ":"), bytes.next() == UInt8(ascii: "/"), bytes.next() == UInt8(ascii: "/") else {
            return false
        }
        var hostLength = 0
        var port: Int?
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return hostLength > 0 && (port.map { (1...65535).contains($0) } ?? true)
            case UInt8(ascii: ":") where port == nil:
                port = 0
            case UInt8(ascii: "0")...UInt8(ascii: "9") where port != nil:
                guard let digits = port, digits < 10_000 else { return false }
                port = digits * 10 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
                guard port == nil else { return false }
                hostLength += 1
            default:
                return false
            }
        }
        return hostLength > 0 && (port.map { (1...65535).contains($0) } ?? true)
    }
}
