extension RequestPerforming {
    /// Sends `request` through an enhancing layer with no enhancers of its own, over this
    /// performer, when its `options` hold enhancers (``RequestOptions/enhancers``) that no
    /// enhancing layer above ran; `nil` when they hold none. The layers that build a request
    /// and the performers at the bottom call this first, so those run once per attempt.
    package func performingOwnEnhancers(
        of request: any Request, _ options: RequestOptions,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> (any Cancellable)? {
        guard !options.enhancers.isEmpty else { return nil }
        return layered(EnhancingLayer([])).perform(request, completion: completion)
    }
}
