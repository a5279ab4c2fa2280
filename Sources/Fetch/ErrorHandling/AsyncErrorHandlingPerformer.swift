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

    /// Wraps `base`.
    package init(base: any RequestPerforming, handler: any AsyncErrorHandler) {
        self.base = base
        self.handler = handler
    }

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
        let error: any Error
        switch result {
        case .failure(let failure): error = failure
        case .success(let response) where response.status >= 400: error = FetchError.httpStatus(response)
        case .success: return call.finish(result)
        }
        guard !call.isFinished, handler.handles(error, for: call.request) else { return call.finish(result) }
        let (base, handler) = (self.base, self.handler)
        call.run {
            let task = Task {
                let outcome: AsyncErrorHandlingResult
                do {
                    outcome = try await handler.handle(error, for: call.request)
                } catch {
                    call.request.attemptLog?.received(result)
                    return call.answer(
                        .failure(FetchError.wrapping(error, layer: handler.name, request: call.request, through: base)))
                }
                switch outcome {
                case .recover(var response):
                    response.request = callersRequest(of: call.request)
                    call.answer(.success(response))
                case .replace(let newError):
                    call.request.attemptLog?.replaced(result)
                    call.answer(.failure(newError))
                case .pass:
                    call.answer(result)
                case .retry:
                    call.request.attemptLog?.received(result)
                    call.run { base.perform(call.request) { call.finish($0) } }
                }
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
