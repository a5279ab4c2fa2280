import Foundation

extension Parsable where Self: Decodable {
    /// Decodes the body as JSON with a plain `JSONDecoder`, accepting any 2xx status.
    ///
    /// To use another decoder, implement `parse(from:)` with
    /// `try response.decode(Self.self, using: decoder)`.
    public static func parse(from response: Response) throws -> Self {
        try response.decode(Self.self)
    }
}

extension Array: Parsable where Element: Decodable & Parsable {
    /// Decodes a JSON array with a plain `JSONDecoder`, accepting any 2xx status.
    public static func parse(from response: Response) throws -> Array {
        try response.decode(Array.self)
    }
}

extension Response {
    /// Decodes the body as JSON.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - decoder: the decoder; a plain `JSONDecoder` by default.
    /// - Throws: ``FetchError/Code-swift.enum/httpStatus`` unless the status is 2xx;
    ///   ``FetchError/Code-swift.enum/decoding`` naming the type, the key path and the
    ///   first bytes of the body when the body is empty or does not decode.
    public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> Value {
        try requireSuccess()
        guard !body.isEmpty else {
            throw decodingError("expected \(Value.self) but the body was empty", underlying: nil)
        }
        do {
            return try decoder.decode(Value.self, from: body)
        } catch let error as DecodingError {
            throw decodingError("could not decode \(Value.self): \(Self.explain(error))", underlying: error)
        } catch {
            throw decodingError("could not decode \(Value.self): \(error)", underlying: error)
        }
    }

    /// A ``FetchError/Code-swift.enum/decoding`` error naming the request, with the body's first bytes.
    func decodingError(_ reason: String, underlying: (any Error)?) -> FetchError {
        let preview = bodyPreview(limit: 120)
        return FetchError(
            .decoding, reason: reason + (preview.isEmpty ? "" : "; body began: \(preview)"),
            method: HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET"), url: urlRequest.url ?? url,
            response: self, underlying: underlying
        )
    }

    static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "at the top level" : "at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "key \"\(key.stringValue)\" not found \(path(context))"
        case .valueNotFound(let type, let context):
            return "expected \(type) but found null \(path(context))"
        case .typeMismatch(let type, let context):
            return "expected \(type) \(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "data corrupted \(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
