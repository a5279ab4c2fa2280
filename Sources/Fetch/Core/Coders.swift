/// The coders a stack (or one request) uses: the JSON encoder for ``RequestBody/json(_:encoder:)``
/// bodies, the JSON decoder for `Decodable` models, and the ``ParameterEncoder`` for
/// ``Request/query`` and ``RequestBody/form(_:encoder:)``.
///
/// Set them once for a stack with ``RequestPerforming/coding(with:)``; a request overrides
/// any of them for itself with ``RequestOptions/coders``. A coder left `nil` is taken from
/// the next place that names one. Who wins, first to last:
///
/// - encoding a body: the encoder passed to `.json(_:encoder:)` or `.form(_:encoder:)`;
///   the request's ``RequestOptions/coders``; the stack's; a plain `JSONEncoder` or
///   `ParameterEncoder()`;
/// - decoding a model: a decoder passed to the call (`perform(_:decoding:using:)`,
///   ``Response/decode(_:using:)``); the request's ``RequestOptions/coders``; the model's
///   own (``JSONDecoderProviding``); the stack's; a plain `JSONDecoder`.
public struct Coders: Sendable {
    /// Makes the encoder for JSON bodies; `nil` leaves it to the next place.
    public var jsonEncoder: (@Sendable () -> JSONEncoder)?
    /// Makes the decoder for `Decodable` models; `nil` leaves it to the next place.
    public var jsonDecoder: (@Sendable () -> JSONDecoder)?
    /// Encodes queries and form bodies from `Encodable` values; `nil` leaves it to the next place.
    public var parameterEncoder: ParameterEncoder?

    /// Makes a set of coders; each one left out is taken from the next place.
    ///
    /// ```swift
    /// let api = Session().coding(with: Coders(
    ///     jsonEncoder: { let e = JSONEncoder(); e.keyEncodingStrategy = .convertToSnakeCase; return e },
    ///     jsonDecoder: { let d = JSONDecoder(); d.keyDecodingStrategy = .convertFromSnakeCase; return d },
    ///     parameterEncoder: ParameterEncoder(arrayEncoding: .repeated)
    /// ))
    /// ```
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

    /// The parameter encoder to use: this set's, or the default one.
    var parameters: ParameterEncoder { parameterEncoder ?? ParameterEncoder() }
}

extension RequestOptions {
    private enum CodersKey: RequestOptionKey { static let defaultValue: Coders? = nil }

    /// The coders for this call. Set on a request, they override the stack's one by one
    /// (a coder left `nil` is still the stack's); a ``RequestPerforming/coding(with:)``
    /// layer fills in the rest on the way down. `nil` by default.
    public var coders: Coders? {
        get { self[CodersKey.self] }
        set { self[CodersKey.self] = newValue }
    }
}
