/// Anything that can perform a ``Request``: the real ``Session``, a layer wrapping
/// another performer, or a spy in a test.
///
/// There is one requirement. Everything else (parsing into ``Parsable`` models,
/// async/await, typed requests, layers) comes from extensions, so a conformer writes one
/// method and gets the whole API.
///
/// Every layer holds the performer it wraps as `any RequestPerforming` and is not
/// generic, so the layer verbs (`enhanced(by:)`, `retrying(_:scheduler:)`, ...) work on
/// an injected `any RequestPerforming` as well as on a concrete performer, and their
/// result can be stored as `any RequestPerforming`.
public protocol RequestPerforming: Sendable {
    /// Performs `request` and calls `completion` exactly once with the response or an error.
    ///
    /// Any status code is a `.success` here; turning statuses into errors is the parser's
    /// job. A cancelled request completes with ``FetchError/Code-swift.enum/cancelled``.
    /// - Parameters:
    ///   - request: what to send.
    ///   - completion: called once, on a queue the performer documents.
    /// - Returns: a handle that cancels the request.
    @discardableResult
    func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable
}
