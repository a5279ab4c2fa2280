import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

extension SpyPerformer {
    /// The `URLRequest`s the spy accepted, in order: what `Session` would have sent. Calls
    /// the spy refused (see ``SpyPerformer``) are left out, so there is no optional to unwrap.
    public var sentRequests: [URLRequest] { calls.compactMap(\.urlRequest) }

    /// The `index`th request the spy accepted (from 0), to assert on its method, path,
    /// query, headers and body.
    /// - Throws: ``SentRequest/Missing`` when fewer requests were sent, saying how many were.
    public func sent(_ index: Int) throws -> SentRequest {
        let sent = sentRequests
        guard sent.indices.contains(index) else {
            throw SentRequest.Missing(
                description: "the spy was sent \(sent.count) request(s); there is no request \(index)"
                    + " (counting from 0)")
        }
        return SentRequest(urlRequest: sent[index])
    }
}

/// One request a ``SpyPerformer`` was sent, read without optionals. Made by
/// ``SpyPerformer/sent(_:)``.
public struct SentRequest: Sendable {
    /// The error when the spy was sent fewer requests than asked for.
    public struct Missing: Error, CustomStringConvertible {
        /// How many requests there were.
        public let description: String
    }

    /// The request as the spy got it.
    public let urlRequest: URLRequest

    /// Wraps a `URLRequest`.
    public init(urlRequest: URLRequest) { self.urlRequest = urlRequest }

    /// The method.
    public var method: HTTPMethod { HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET") }
    /// The absolute URL sent (after a `BaseURL` completed it). Every request the spy accepts
    /// has one; a hand-made `URLRequest` without a URL reads as `about:blank`.
    public var url: URL { urlRequest.url ?? URL(string: "about:blank")! }
    /// The URL's path, percent-decoded (`/users/7`).
    public var path: String { urlRequest.url?.path ?? "" }
    /// The query items, decoded, in order.
    public var queryItems: [URLQueryItem] {
        urlRequest.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true)?.queryItems } ?? []
    }
    /// The value of the first query item named `name`, decoded; `nil` when there is none.
    public func queryItem(_ name: String) -> String? { queryItems.first { $0.name == name }?.value }
    /// The value of the header field `name` (any case); `nil` when it was not sent.
    public func header(_ name: String) -> String? { urlRequest.value(forHTTPHeaderField: name) }
    /// The body bytes; empty when there is none (a streamed body is not read).
    public var body: Data { urlRequest.httpBody ?? Data() }
    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
    /// The body parsed as JSON, comparable with ``json(_:)``: key order and spacing do not matter.
    /// - Throws: the parser's error when the body is not JSON.
    public var jsonBody: JSONValue { get throws { try JSONValue(data: body) } }
    /// The body decoded as `type` with a plain `JSONDecoder`.
    /// - Throws: the decoder's error.
    public func json<Value: Decodable>(as type: Value.Type) throws -> Value {
        try JSONDecoder().decode(Value.self, from: body)
    }

    /// `text` parsed as JSON, to compare with ``jsonBody``.
    /// - Throws: the parser's error when `text` is not JSON.
    public static func json(_ text: String) throws -> JSONValue { try JSONValue(data: Data(text.utf8)) }
}

/// A JSON value that compares by meaning: objects by their keys and values whatever the
/// order, numbers by value.
public enum JSONValue: Sendable, Equatable, Decodable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Parses `data`.
    /// - Throws: the decoder's error when `data` is not JSON.
    public init(data: Data) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The value as compact JSON-like text.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value): return value.rounded() == value ? String(Int64(value)) : String(value)
        case .string(let value): return value.debugDescription
        case .array(let values): return "[" + values.map(\.description).joined(separator: ",") + "]"
        case .object(let fields):
            return "{"
                + fields.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\($0.value)" }
                .joined(separator: ",") + "}"
        }
    }
}

extension JSONValue {
    /// Reads any JSON value; `true` and `false` stay booleans, never numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
