extension RequestPerforming {
    /// Performs a ``TypedRequest`` and returns its `Output`, parsed as `perform(_:)` does, with the response.
    /// - Throws: the error of the call or of the parser.
    public func parsed<Typed: TypedRequest>(_ request: Typed) async throws -> Parsed<Typed.Output> {
        try await parsed(request, as: Typed.Output.self, errorParser: request.errorParser)
    }

    /// Performs `request` and returns the model parsed as `type` together with the response.
    /// - Throws: the error of the call or of the parser.
    public func parsed<Output: Parsable>(
        _ request: any Request, as type: Output.Type = Output.self, errorParser: (any ErrorParsing.Type)? = nil
    ) async throws -> Parsed<Output> {
        let response = try await response(for: request)
        return Parsed(value: try response.parse(as: Output.self, errorParser: errorParser), response: response)
    }

    /// Performs a ``TypedRequest``; calls `completion` once with its `Output` and the response, or an error.
    @discardableResult
    public func parsed<Typed: TypedRequest>(
        _ request: Typed, completion: @escaping @Sendable (Result<Parsed<Typed.Output>, any Error>) -> Void
    ) -> any Cancellable {
        perform(
            request, parsing: { try Parsed(value: $0.parse(errorParser: request.errorParser), response: $0) },
            completion: completion)
    }
}
