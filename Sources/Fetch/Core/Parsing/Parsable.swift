/// A model made from a ``Response`` by a pure static function, so a hand-made `Response` tests it. A `Decodable`
/// type must declare the conformance (Swift cannot add it) and gets a ready-made `parse(from:)` that decodes JSON
/// (another decoder: ``JSONDecoderProviding``).
public protocol Parsable: Sendable {
    /// Makes a value from `response`.
    /// - Throws: ``FetchError/Code-swift.enum/httpStatus`` for a status the type does not accept,
    ///   ``FetchError/Code-swift.enum/decoding`` for a body it cannot read, or its own error.
    static func parse(from response: Response) throws -> Self
}

/// Turns an error response into the caller's own error, such as the API's error body. Asked only
/// about non-2xx responses; `nil` lets the ordinary ``FetchError/Code-swift.enum/httpStatus`` through.
public protocol ErrorParsing: Sendable {
    /// The error for `response`, or `nil` when the body is not one this type understands.
    static func error(from response: Response) -> (any Error)?
}

extension Response {
    /// Parses the response as `type`, asking `errorParser` first when the status is not 2xx.
    /// - Throws: the error `errorParser` returns, or whatever `type.parse(from:)` throws.
    public func parse<Output: Parsable>(
        as type: Output.Type = Output.self,
        errorParser: (any ErrorParsing.Type)? = nil
    ) throws -> Output {
        try Output.parse(from: throwingParsedError(errorParser))
    }

    /// This response, unless its status is not 2xx and `errorParser` makes an error of it, which this throws.
    func throwingParsedError(_ errorParser: (any ErrorParsing.Type)?) throws -> Response {
        if !isSuccess, let errorParser, let error = errorParser.error(from: self) { throw error }
        return self
    }

    /// Throws ``FetchError/Code-swift.enum/httpStatus`` unless the status is 2xx.
    public func requireSuccess() throws {
        guard isSuccess else { throw FetchError.httpStatus(self) }
    }
}
