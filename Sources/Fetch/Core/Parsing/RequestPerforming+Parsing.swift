extension RequestPerforming {
    /// Performs `request`, parses the response as `type` (asking `errorParser` first about a non-2xx response) and
    /// calls `completion` once. Parsing runs on the performer's completion queue, never on the transport's.
    @discardableResult
    public func perform<Output: Parsable>(
        _ request: any Request,
        as type: Output.Type,
        errorParser: (any ErrorParsing.Type)? = nil,
        completion: @escaping @Sendable (Result<Output, any Error>) -> Void
    ) -> any Cancellable {
        perform(request, parsing: { try $0.parse(as: Output.self, errorParser: errorParser) }, completion: completion)
    }

    /// Performs a ``TypedRequest`` and parses the response as its `Output`, with its `errorParser`.
    @discardableResult
    public func perform<Typed: TypedRequest>(
        _ request: Typed,
        completion: @escaping @Sendable (Result<Typed.Output, any Error>) -> Void
    ) -> any Cancellable {
        perform(request, as: Typed.Output.self, errorParser: request.errorParser, completion: completion)
    }

    /// Performs `request`, decodes the JSON body as `type` with `decoder` (asking `errorParser` first about a non-2xx
    /// response) and calls `completion` once: for non-``Parsable`` `Decodable` types, or a decoder for one call.
    @discardableResult
    public func perform<Output: Decodable & Sendable>(
        _ request: any Request,
        decoding type: Output.Type,
        using decoder: JSONDecoder,
        errorParser: (any ErrorParsing.Type)? = nil,
        completion: @escaping @Sendable (Result<Output, any Error>) -> Void
    ) -> any Cancellable {
        perform(
            request, parsing: { try $0.throwingParsedError(errorParser).decode(Output.self, using: decoder) },
            completion: completion)
    }

    /// Performs `request` and calls `completion` once with what `parse` makes of the response, or the call's error.
    func perform<Output>(
        _ request: any Request, parsing parse: @escaping @Sendable (Response) throws -> Output,
        completion: @escaping @Sendable (Result<Output, any Error>) -> Void
    ) -> any Cancellable {
        perform(request) { result in completion(result.flatMap { response in Result { try parse(response) } }) }
    }
}
