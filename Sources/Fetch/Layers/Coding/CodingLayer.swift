/// Fills in unset coders going down and sets ``Response/coders`` coming up, so its place in the stack does not matter.
struct CodingLayer: PassingOnce {
    let coders: Coders

    func passesOnce(_ request: any Request) -> Bool { true }

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let merged = request.options.coders?.filled(from: coders) ?? coders
        return next.perform(LayeredRequest(request, options: { $0.coders = merged })) { result in
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
    /// This performer, encoding and decoding with `coders` unless a request or a model names its own (see ``Coders``).
    public func coding(with coders: Coders) -> LayeredPerformer {
        layered(CodingLayer(coders: coders))
    }
}
