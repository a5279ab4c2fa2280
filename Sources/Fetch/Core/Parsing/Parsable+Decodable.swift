/// A `Decodable` model that chooses the `JSONDecoder` that reads it, wherever it is decoded without one of its own
/// (see <doc:RequestsAndModels>).
public protocol JSONDecoderProviding: Decodable {
    /// The decoder for this type's responses.
    static var decoder: JSONDecoder { get }
}

extension JSONDecoderProviding {
    /// A plain `JSONDecoder`.
    public static var decoder: JSONDecoder { JSONDecoder() }
}

extension Array: JSONDecoderProviding where Element: JSONDecoderProviding {
    /// The decoder of the elements.
    public static var decoder: JSONDecoder { Element.decoder }
}

extension Parsable where Self: Decodable {
    /// Decodes the body as JSON for any 2xx status, with the decoder ``Response/decode(_:using:)`` chooses.
    public static func parse(from response: Response) throws -> Self {
        try response.decode(Self.self)
    }
}

extension Array: Parsable where Element: Decodable & Parsable {
    /// Decodes a JSON array for any 2xx status, with the decoder ``Response/decode(_:using:)`` chooses.
    public static func parse(from response: Response) throws -> Array {
        try response.decode(Array.self)
    }
}

extension Response {
    /// Decodes the body as JSON with `decoder` or, when `nil`, the first of: the request's ``RequestOptions/coders``
    /// decoder, the type's ``JSONDecoderProviding/decoder``, the stack's (``coders``), a plain `JSONDecoder`.
    /// - Throws: ``FetchError/Code-swift.enum/httpStatus`` unless the status is 2xx; for an empty or
    ///   undecodable body, ``FetchError/Code-swift.enum/decoding`` naming the type and key path.
    public func decode<Value: Decodable>(_ type: Value.Type, using decoder: JSONDecoder? = nil) throws -> Value {
        let decoder =
            decoder ?? request.options.coders?.jsonDecoder?()
            ?? (Value.self as? any JSONDecoderProviding.Type)?.decoder ?? coders?.jsonDecoder?() ?? JSONDecoder()
        try requireSuccess()
        guard !body.isEmpty else {
            throw FetchError(.decoding, about: self, reason: "expected \(Value.self) but the body was empty")
        }
        do {
            return try decoder.decode(Value.self, from: body)
        } catch {
            let detail = (error as? DecodingError).map(Self.explain) ?? "\(error)"
            throw FetchError(
                .decoding, about: self, reason: "could not decode \(Value.self): \(detail)", underlying: error)
        }
    }

    static func explain(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "at the top level" : "at \(keys.hasPrefix(".") ? String(keys.dropFirst()) : keys)"
        }
        return switch error {
        case .keyNotFound(let key, let context): "key \"\(key.stringValue)\" not found \(path(context))"
        case .valueNotFound(let type, let context): "expected \(type) but found null \(path(context))"
        case .typeMismatch(let type, let context): "expected \(type) \(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context): "data corrupted \(path(context)): \(context.debugDescription)"
        @unknown default: "\(error)"
        }
    }
}
