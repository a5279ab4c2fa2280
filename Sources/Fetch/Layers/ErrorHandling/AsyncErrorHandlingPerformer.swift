/// A performer that hands each failed call to an ``AsyncErrorHandler`` and waits for its
/// answer. Made by ``RequestPerforming/handlingErrors(with:)``.
///
/// The handler runs in a `Task`, so a call it handles completes after `perform` returns,
/// even over a spy. Cancelling the call while the handler runs completes it at once with
/// ``FetchError/Code-swift.enum/cancelled`` and cancels the `Task`; a retry it asked for
/// is cancelled with the call. A handler that throws fails the call with an error naming it.
public struct AsyncErrorHandlingPerformer: RequestPerforming {
    /// The performer the calls go to.
    package let base: any RequestPerforming
    /// The handler.
    package let handler: any AsyncErrorHandler

    /// Performs `request`, handing a failure to the handler.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let call = LayerCall(request: request, through: base, completion: completion)
        call.run { base.perform(request) { result in handle(result, of: call) } }
        return call
    }

    private func handle(_ result: Result<Response, any Error>, of call: LayerCall) {
        guard let error = ErrorHandlingResult.error(of: result), !call.isFinished,
            handler.handles(error, for: call.request)
        else { return call.finish(result) }
        let (base, handler) = (self.base, self.handler)
        call.run {
            let task = Task {
                let outcome: ErrorHandlingResult
                do {
                    switch try await handler.handle(error, for: call.request) {
                    case .recover(let response): outcome = .recover(response)
                    case .replace(let newError): outcome = .replace(newError)
                    case .pass: outcome = .pass
                    case .retry:
                        call.request.attemptLog?.received(result)
                        return call.run { base.perform(call.request) { call.finish($0) } }
                    }
                } catch {
                    call.request.attemptLog?.received(result)
                    return call.answer(
                        .failure(FetchError.wrapping(error, layer: handler.name, request: call.request, through: base)))
                }
                call.answer(outcome.applied(to: result, failingWith: error, for: call.request).result)
            }
            return CancellationHandle { task.cancel() }
        }
    }
}

extension RequestPerforming {
    /// This performer with failed calls handed to `handler`, which may wait before it
    /// recovers, replaces the error, lets it through or sends the call again once.
    ///
    /// ```swift
    /// let api = Session()
    ///     .resuming(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
    ///     .handlingErrors(with: AskToRetry(dialog: dialog))
    /// ```
    /// - Returns: the error-handling performer.
    public func handlingErrors(with handler: any AsyncErrorHandler) -> AsyncErrorHandlingPerformer {
        AsyncErrorHandlingPerformer(base: self, handler: handler)
    }
}
