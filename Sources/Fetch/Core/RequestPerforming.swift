/// Anything that can perform a ``Request``: the real ``Session``, a layer wrapping
/// another performer, or a spy in a test.
///
/// A conformer writes one method, ``perform(_:completion:)``, and gets the whole API:
/// everything else (parsing into ``Parsable`` models, async/await, typed requests, layers)
/// comes from extensions. The one other requirement, ``completionQueue(for:)``, has a
/// default; a performer that calls back on a queue of its own says which, so that layers
/// above it that answer a call themselves call back there too.
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

    /// The queue this performer calls `request`'s completion on, or `nil` when it calls back
    /// where it happens to finish (the spy: before `perform` returns).
    ///
    /// A layer that answers a call without the performer below (a cache hit, a coalesced
    /// call that is cancelled, a retry that is cancelled while it waits) calls back on the
    /// queue the performer below names, so that every completion of a stack arrives where
    /// the bottom performer's do. The default is the request's own
    /// ``RequestOptions/completionQueue``; ``Session`` names that queue, else its
    /// ``Session/Configuration-swift.struct/completionQueue`` (or its own queue), and every
    /// layer of this library names its base's.
    /// - Parameter request: the call, as this performer receives it.
    /// - Returns: the queue, or `nil` for "call back at once".
    func completionQueue(for request: any Request) -> DispatchQueue?
}
