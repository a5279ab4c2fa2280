/// An HTTP request method: the nine of RFC 9110 and RFC 5789 as constants, any other from a string
/// literal (`"PROPFIND"`). `Session` refuses a method that is not an RFC 9110 token.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method as it goes on the wire, for example `"GET"`.
    public let rawValue: String

    /// Makes a method from its wire form. Case is kept as given: methods are case-sensitive.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Makes a method from a string literal, for example `let method: HTTPMethod = "PROPFIND"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The wire form of the method.
    public var description: String { rawValue }

    /// `GET`: transfer a current representation of the target resource.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: like GET, but the server sends no body.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`: process the enclosed representation.
    public static let post: HTTPMethod = "POST"
    /// `PUT`: replace the target resource with the enclosed representation.
    public static let put: HTTPMethod = "PUT"
    /// `DELETE`: remove the target resource.
    public static let delete: HTTPMethod = "DELETE"
    /// `CONNECT`: establish a tunnel to the server.
    public static let connect: HTTPMethod = "CONNECT"
    /// `OPTIONS`: describe the communication options for the target resource.
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`: perform a message loop-back test.
    public static let trace: HTTPMethod = "TRACE"
    /// `PATCH`: apply partial modifications to the target resource.
    public static let patch: HTTPMethod = "PATCH"

    static let idempotent: Set<HTTPMethod> = [.get, .head, .options, .put, .delete, .trace]

    /// Whether the method is idempotent by RFC 9110 (GET, HEAD, OPTIONS, PUT, DELETE, TRACE).
    public var isIdempotent: Bool { Self.idempotent.contains(self) }
}
