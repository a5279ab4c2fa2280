/// Hands each failed call to an ``AsyncErrorHandler`` in a `Task`. Cancelling the call while the handler runs ends it
/// at once as cancelled and cancels its `Task` and any retry.
struct AsyncErrorHandlingLayer: Layer {
    let handler: any AsyncErrorHandler

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let handling = CancellationHandle()
        _ = next.perform(request) { [handler] result in
            guard let error = ErrorHandlingResult.error(of: result), handler.handles(error, for: request) else {
                return completion(result)
            }
            let task = Task {
                let outcome: ErrorHandlingResult
                do {
                    switch try await handler.handle(error, for: request) {
                    case .recover(let response): outcome = .recover(response)
                    case .replace(let newError): outcome = .replace(newError)
                    case .pass: outcome = .pass
                    case .retry:
                        request.attemptLog?.received(result)
                        _ = next.perform(request, completion: completion)
                        return
                    }
                } catch {
                    request.attemptLog?.received(result)
                    return completion(
                        .failure(FetchError.wrapping(error, layer: handler.name, request: request, through: next)))
                }
                completion(outcome.applied(to: result, failingWith: error, for: request).result)
            }
            handling.setAction { task.cancel() }
        }
        return handling
    }
}

extension RequestPerforming {
    /// This performer with failed calls handed to `handler`, which may wait before it recovers, replaces the error,
    /// lets it through or sends the call again once.
    public func handlingErrors(with handler: any AsyncErrorHandler) -> LayeredPerformer {
        layered(AsyncErrorHandlingLayer(handler: handler))
    }
}
