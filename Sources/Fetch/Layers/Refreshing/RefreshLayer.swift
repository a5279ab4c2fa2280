/// The layer of ``RequestPerforming/refreshing(with:)``, as the ComposingLayers article has it. A call sent before a
/// refresh succeeded that fails afterwards is resent without another; a cancelled waiting call leaves it to the others.
struct RefreshLayer: Layer {
    let handler: any RefreshHandler
    /// The handler's runs, one at a time (under one key) for every call that needs one; shared by copies.
    let runs = SingleFlight<Int, Void>()

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let seen = runs.succeeded
        return next.perform(request) { [self] result in
            // A stream whose reader has its response is never sent again: no refresh for it.
            guard request.options.kind.canBeSentAgain, handler.shouldRefresh(after: result, for: request) else {
                return completion(result)
            }
            request.attemptLog?.received(result)
            let resend: SingleFlight<Int, Void>.Waiter = { outcome, _ in
                switch outcome {
                case .failure(let error): completion(.failure(refreshFailed(error, after: result, for: request, next)))
                case .success:
                    next.perform(request) { completion($0.recordingMetrics { $0.refreshes += 1 }) }
                }
            }
            // A run that succeeded since the call was sent already refreshed: resend at once.
            guard let place = runs.join(0, unlessSucceededSince: seen, resend) else { return resend(.success(()), 1) }
            if place.starts { handler.run { [runs] in runs.finish(place, with: $0) } }
        }
    }

    /// A ``FetchError/Code-swift.enum/layer`` error with the refresh's error as `underlying` and the response that
    /// called for it as `response`, so a ``StatusErrorHandler`` above handles it.
    private func refreshFailed(
        _ error: any Error, after result: Result<Response, any Error>, for request: any Request,
        _ next: any RequestPerforming
    ) -> FetchError {
        let response = result.response
        let (method, url) = request.target(through: next)
        return FetchError(
            .layer, reason: "\(handler.name) failed, so the call was not resent: \(FetchError.summary(of: error))",
            method: method, url: response?.urlRequest.url ?? url, response: response, underlying: error,
            layer: handler.name)
    }
}

extension RequestPerforming {
    /// This performer, running `handler`'s refresh after a failure it recognizes (a 401) and then sending the call
    /// once more. Put it above the enhancers that apply the new credentials, so the resent request goes through them.
    public func refreshing(with handler: any RefreshHandler) -> LayeredPerformer {
        layered(RefreshLayer(handler: handler))
    }
}
