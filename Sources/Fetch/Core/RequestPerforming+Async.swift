extension RequestPerforming {
    /// Performs `request` and returns the raw response, whatever its status. Cancelling the calling
    /// `Task` cancels the request, which then throws ``FetchError/Code-swift.enum/cancelled``.
    /// - Throws: a ``FetchError`` or an error from a layer.
    public func response(for request: any Request) async throws -> Response {
        if Task.isCancelled { throw FetchError.cancelled(request, through: self) }
        let outcome = ResultOnce<Response>()
        let call = perform(request) { outcome.finish($0) }
        return try await outcome.value(cancelling: call)
    }

    /// Performs `request` and parses the response as `type`.
    /// - Throws: the error of the call or of the parser.
    public func perform<Output: Parsable>(
        _ request: any Request,
        as type: Output.Type = Output.self,
        errorParser: (any ErrorParsing.Type)? = nil
    ) async throws -> Output {
        try await response(for: request).parse(as: Output.self, errorParser: errorParser)
    }

    /// Performs a ``TypedRequest`` and returns its `Output`.
    /// - Throws: the error of the call or of the parser.
    public func perform<Typed: TypedRequest>(_ request: Typed) async throws -> Typed.Output {
        try await response(for: request).parse(as: Typed.Output.self, errorParser: request.errorParser)
    }

    /// Performs `request` and decodes the JSON body as `type` with `decoder`, for `Decodable` types
    /// that are not ``Parsable`` or need a decoder for this call only.
    /// - Throws: the error of the call, the error parser's error, or ``FetchError/Code-swift.enum/decoding``.
    public func perform<Output: Decodable>(
        _ request: any Request,
        decoding type: Output.Type,
        using decoder: JSONDecoder,
        errorParser: (any ErrorParsing.Type)? = nil
    ) async throws -> Output {
        try await response(for: request).throwingParsedError(errorParser).decode(Output.self, using: decoder)
    }
}
