/// The coders a stack (or one request) uses for JSON bodies, `Decodable` models, queries and form bodies; a coder left
/// `nil` is taken from the next place (see "Coders" in <doc:RequestsAndModels>).
public struct Coders: Sendable {
    /// Makes the encoder for JSON bodies; `nil` leaves it to the next place.
    public var jsonEncoder: (@Sendable () -> JSONEncoder)?
    /// Makes the decoder for `Decodable` models; `nil` leaves it to the next place.
    public var jsonDecoder: (@Sendable () -> JSONDecoder)?
    /// Encodes queries and form bodies from `Encodable` values; `nil` leaves it to the next place.
    public var parameterEncoder: ParameterEncoder?

    /// Makes a set of coders; each one left out is taken from the next place.
    public init(
        jsonEncoder: (@Sendable () -> JSONEncoder)? = nil, jsonDecoder: (@Sendable () -> JSONDecoder)? = nil,
        parameterEncoder: ParameterEncoder? = nil
    ) {
        self.jsonEncoder = jsonEncoder
        self.jsonDecoder = jsonDecoder
        self.parameterEncoder = parameterEncoder
    }

    /// These coders, with the ones they leave `nil` taken from `fallback`.
    public func filled(from fallback: Coders?) -> Coders {
        guard let fallback else { return self }
        return Coders(
            jsonEncoder: jsonEncoder ?? fallback.jsonEncoder, jsonDecoder: jsonDecoder ?? fallback.jsonDecoder,
            parameterEncoder: parameterEncoder ?? fallback.parameterEncoder)
    }
}

extension RequestOptions {
    private enum CodersKey: RequestOptionKey { static let defaultValue: Coders? = nil }

    /// The coders for this call, overriding the stack's one by one; `nil` by default.
    public var coders: Coders? {
        get { self[CodersKey.self] }
        set { self[CodersKey.self] = newValue }
    }
}
