/// Passes every failed call through a chain of ``ErrorHandler``s, ``RequestOptions/errorOverride`` first; a 4xx or
/// 5xx is seen as `httpStatus`, delivered as is if let pass.
struct ErrorHandlingLayer: Layer {
    let handlers: [any ErrorHandler]
    let presenter: (any RequestPresenting)?

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let showsLoading = request.options.showsLoading
        if showsLoading { presenter?.loadingStarted(for: request) }
        return next.perform(request) { [self] result in
            let handled = handle(result, of: request, next)
            if showsLoading { presenter?.loadingEnded(for: request) }
            if let error = handled.shown, (error as? FetchError)?.code != .cancelled, !(error is CancellationError),
                request.options.presentsErrors
            {
                presenter?.show(error, for: request)
            }
            completion(handled.result)
        }
    }

    private func handle(
        _ result: Result<Response, any Error>, of request: any Request, _ next: any RequestPerforming
    ) -> (result: Result<Response, any Error>, shown: (any Error)?) {
        guard let error = ErrorHandlingResult.error(of: result) else { return (result, nil) }
        var outcome = request.options.errorOverride?(error, request)
        if outcome == nil, let handler = handlers.first(where: { $0.handles(error, for: request) }) {
            do {
                outcome = try handler.handle(error, for: request)
            } catch {
                presenter?.handlerFailed(error, handler: handler.name, for: request)
                request.attemptLog?.received(result)
                let failure = FetchError.wrapping(error, layer: handler.name, request: request, through: next)
                return (.failure(failure), failure)
            }
        }
        return (outcome ?? .pass).applied(to: result, failingWith: error, for: request)
    }
}

extension RequestPerforming {
    /// This performer with failed calls passed through `handlers`, in order, the first that handles an error winning,
    /// and calls reported to `presenter` (none by default).
    public func handlingErrors(
        _ handlers: [any ErrorHandler], presenter: (any RequestPresenting)? = nil
    ) -> LayeredPerformer {
        layered(ErrorHandlingLayer(handlers: handlers, presenter: presenter))
    }
}
