/// The layer that passes every failed call through a chain of ``ErrorHandler``s and reports
/// calls to a ``RequestPresenting``. Made by ``RequestPerforming/handlingErrors(_:presenter:)``.
///
/// A call fails here when the performer below delivers an error, or a response with a
/// status of 400 or more (seen by the handlers as ``FetchError/Code-swift.enum/httpStatus``,
/// and delivered unchanged when they let it pass; the presenter is then still asked to show
/// that `httpStatus` error, as for any failure that reaches the caller). The request's own
/// ``RequestOptions/errorOverride`` is asked first and can stop the chain; then the first
/// handler that handles the error wins. A handler that throws fails the call with an error
/// naming it, and the presenter hears ``RequestPresenting/handlerFailed(_:handler:for:)``.
/// A recovered response reaches the caller with the caller's request in ``Response/request``.
struct ErrorHandlingLayer: Layer {
    /// The chain, in order.
    let handlers: [any ErrorHandler]
    /// Where loading and errors are reported, if anywhere.
    let presenter: (any RequestPresenting)?

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let showsLoading = request.options.showsLoading
        if showsLoading { presenter?.loadingStarted(for: request) }
        return next.perform(request) { [self] result in
            let handled = handle(result, of: request, next)
            if let presenter {
                if showsLoading { presenter.loadingEnded(for: request) }
                if let error = handled.shown, !Self.isCancellation(error), request.options.presentsErrors {
                    presenter.show(error, for: request)
                }
            }
            completion(handled.result)
        }
    }

    /// What the caller gets, and the error the presenter shows, if any: the error delivered,
    /// or, for a response of 400 or more delivered as it came, its
    /// ``FetchError/Code-swift.enum/httpStatus`` error.
    private typealias Handled = (result: Result<Response, any Error>, shown: (any Error)?)

    private func handle(
        _ result: Result<Response, any Error>, of request: any Request, _ next: any RequestPerforming
    ) -> Handled {
        guard let error = ErrorHandlingResult.error(of: result) else { return (result, nil) }
        let outcome: ErrorHandlingResult
        if let override = request.options.errorOverride, let decided = override(error, request) {
            outcome = decided
        } else if let handler = handlers.first(where: { $0.handles(error, for: request) }) {
            do {
                outcome = try handler.handle(error, for: request)
            } catch {
                presenter?.handlerFailed(error, handler: handler.name, for: request)
                request.attemptLog?.received(result)
                let failure = FetchError.wrapping(error, layer: handler.name, request: request, through: next)
                return (.failure(failure), failure)
            }
        } else {
            outcome = .pass
        }
        return outcome.applied(to: result, failingWith: error, for: request)
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        (error as? FetchError)?.code == .cancelled || error is CancellationError
    }
}

extension RequestPerforming {
    /// This performer with failed calls passed through `handlers`, the first that handles
    /// an error winning, and calls reported to `presenter`.
    ///
    /// ```swift
    /// let api = Session().handlingErrors([
    ///     CodeErrorHandler(.notConnected) { error, request in .replace(AppError.offline) },
    ///     StatusErrorHandler(401) { response, request in .replace(AppError.signedOut) },
    /// ], presenter: banner)
    /// ```
    /// - Parameters:
    ///   - handlers: the chain, in order.
    ///   - presenter: where loading and errors are reported; none by default.
    /// - Returns: the error-handling performer.
    public func handlingErrors(
        _ handlers: [any ErrorHandler], presenter: (any RequestPresenting)? = nil
    ) -> LayeredPerformer {
        layered(ErrorHandlingLayer(handlers: handlers, presenter: presenter))
    }
}
