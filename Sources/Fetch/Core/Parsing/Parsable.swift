/// A model that can be made from a ``Response``.
///
/// Parsing is a pure static function, so every parser can be tested with a hand-made
/// `Response` and no I/O. A `Decodable` type only declares the conformance; its
/// `parse(from:)` is ready-made:
///
/// ```swift
/// struct User: Decodable, Parsable { let id: Int; let name: String }
/// ```
///
/// The declaration is needed: Swift cannot make every `Decodable` type `Parsable` by
/// itself. Without it, a ``TypedRequest`` whose `Output` is that type does not compile
/// ("does not conform to protocol 'TypedRequest'"); add `Parsable` to the model, or call
/// `perform(_:decoding:using:)`, which takes any `Decodable`.
///
/// They decode JSON with a plain `JSONDecoder`; a model that needs another one (dates,
/// snake_case keys) names it by conforming to ``JSONDecoderProviding``.
///
/// Ready-made conformances: `Data`, `String`, ``Empty``, `Response` itself, and arrays of
/// `Decodable` models. All but `Response` accept only a 2xx status and otherwise throw
/// ``FetchError/Code-swift.enum/httpStatus`` carrying the response.
public protocol Parsable: Sendable {
    /// Makes a value from `response`.
    /// - Throws: ``FetchError/Code-swift.enum/httpStatus`` for a status the type does not
    ///   accept, ``FetchError/Code-swift.enum/decoding`` for a body it cannot read, or an
    ///   error of the type's own.
    static func parse(from response: Response) throws -> Self
}

/// Turns an error response into the caller's own error, such as the API's error body.
///
/// ```swift
/// struct APIError: Decodable, Error, ErrorParsing {
///     let message: String
///     static func error(from response: Response) -> (any Error)? {
///         try? JSONDecoder().decode(APIError.self, from: response.body)
///     }
/// }
/// ```
///
/// It is asked only about responses whose status is not 2xx; returning `nil` lets the
/// ordinary ``FetchError/Code-swift.enum/httpStatus`` error through.
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

    /// This response, unless its status is not 2xx and `errorParser` makes an error of it.
    /// - Throws: the error `errorParser` returns.
    func throwingParsedError(_ errorParser: (any ErrorParsing.Type)?) throws -> Response {
        if !isSuccess, let errorParser, let error = errorParser.error(from: self) { throw error }
        return self
    }

    /// Throws ``FetchError/Code-swift.enum/httpStatus`` unless the status is 2xx.
    public func requireSuccess() throws {
        guard isSuccess else { throw FetchError.httpStatus(self) }
    }
}
