extension RequestPerforming {
    /// Performs `request` and parses the response as `type`.
    ///
    /// Parsing runs on the performer's completion queue, never on the transport's.
    /// - Parameters:
    ///   - request: what to send.
    ///   - type: the model to parse into.
    ///   - errorParser: turns a non-2xx response into the caller's own error.
    ///   - completion: called once with the model or an error.
    /// - Returns: a handle that cancels the request.
    @discardableResult
    public func perform<Output: Parsable>(
        _ request: any Request,
        as type: Output.Type,
        errorParser: (any ErrorParsing.Type)? = nil,
        completion: @escaping @Sendable (Result<Output, any Error>) -> Void
    ) -> any Cancellable {
        perform(request) { result in
            completion(
                result.flatMap { response in
                    Result { try response.parse(as: Output.self, errorParser: errorParser) }
                })
        }
    }

    /// Performs a ``TypedRequest`` and parses the response as its `Output`, using its
    /// `errorParser`.
    /// - Returns: a handle that cancels the request.
    @discardableResult
    public func perform<Typed: TypedRequest>(
        _ request: Typed,
        completion: @escaping @Sendable (Result<Typed.Output, any Error>) -> Void
    ) -> any Cancellable {
        perform(request, as: Typed.Output.self, errorParser: request.errorParser, completion: completion)
    }

    /// Performs `request` and decodes the JSON body as `type` with `decoder`, for
    /// `Decodable` types that are not ``Parsable`` or need a decoder for this call only
    /// (a model can name its own with ``JSONDecoderProviding``).
    /// - Parameters:
    ///   - request: what to send.
    ///   - type: the type to decode.
    ///   - decoder: the decoder for this call.
    ///   - errorParser: turns a non-2xx response into the caller's own error.
    ///   - completion: called once with the value or an error.
    /// - Returns: a handle that cancels the request.
    @discardableResult
    public func perform<Output: Decodable & Sendable>(
        _ request: any Request,
        decoding type: Output.Type,
        using decoder: JSONDecoder,
        errorParser: (any ErrorParsing.Type)? = nil,
        completion: @escaping @Sendable (Result<Output, any Error>) -> Void
    ) -> any Cancellable {
        perform(request) { result in
            completion(
                result.flatMap { response in
                    Result { try response.throwingParsedError(errorParser).decode(Output.self, using: decoder) }
                })
        }
    }
}
