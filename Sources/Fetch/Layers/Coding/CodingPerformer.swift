/// A performer that gives every call a stack's ``Coders``. Made by
/// ``RequestPerforming/coding(with:)``.
///
/// On the way down it fills in the coders a request leaves unset (its
/// ``RequestOptions/coders`` win one by one), so bodies and queries are encoded with them
/// wherever the request is built. On the way up it puts them in ``Response/coders``, so
/// `Decodable` models are decoded with the stack's decoder; its place in the stack does
/// not matter.
public struct CodingPerformer: RequestPerforming {
    /// The performer the calls go to.
    package let base: any RequestPerforming
    /// The stack's coders.
    package let coders: Coders

    /// Performs `request` with the coders filled in, and names them in the response.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let merged = request.options.coders?.filled(from: coders) ?? coders
        return base.perform(LayeredRequest(request, options: { $0.coders = merged })) { result in
            completion(
                result.map { response in
                    var response = response
                    response.coders = (response.coders ?? Coders()).filled(from: merged)
                    return response
                })
        }
    }
}

extension RequestPerforming {
    /// This performer, encoding bodies and queries and decoding models with `coders`
    /// unless a request or a model names its own (see ``Coders``).
    ///
    /// ```swift
    /// let api = Session().coding(with: Coders(jsonDecoder: {
    ///     let decoder = JSONDecoder()
    ///     decoder.dateDecodingStrategy = .iso8601
    ///     return decoder
    /// }))
    /// ```
    /// - Returns: the coding performer.
    public func coding(with coders: Coders) -> CodingPerformer {
        CodingPerformer(base: self, coders: coders)
    }
}
