extension RequestPerforming {
    /// Sends `request` through an enhancing layer that has no enhancers of its own, over
    /// this performer, when `options` (the request's) hold enhancers that no enhancing layer
    /// above ran (``RequestOptions/enhancers``); `nil` when they hold none.
    ///
    /// The layers that build a request (coalescing, the cache) and the performers at the
    /// bottom (`Session`, the spy) call this first, so that a request's own enhancers run
    /// once per attempt whether the stack has no enhancing layer, one, or several: the
    /// first enhancing layer the request meets takes them, and passes the request on
    /// without them.
    package func performingOwnEnhancers(
        of request: any Request, _ options: RequestOptions,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> (any Cancellable)? {
        guard !options.enhancers.isEmpty else { return nil }
        return layered(EnhancingLayer([])).perform(request, completion: completion)
    }
}
