/// Anything that can perform a ``Request``: the real ``Session``, a layer wrapping another
/// performer, or a spy in a test. A conformer writes ``perform(_:completion:)`` and gets the rest
/// (parsing into ``Parsable`` models, async/await, typed requests, layers) from extensions.
public protocol RequestPerforming: Sendable {
    /// Performs `request` and calls `completion` exactly once, on a queue the performer documents,
    /// with the response or an error. Any status is a `.success` (parsers turn statuses into
    /// errors); a cancelled request completes with ``FetchError/Code-swift.enum/cancelled``.
    /// - Returns: a handle that cancels the request.
    @discardableResult
    func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable

    /// The queue this performer calls `request`'s completion on, or `nil` when it calls back where it finishes (the
    /// spy: before `perform` returns). A layer answering a call itself (a cache hit) calls back on its base's queue, so
    /// a stack's completions all arrive where the bottom's do. Defaults to ``RequestOptions/completionQueue``.
    func completionQueue(for request: any Request) -> DispatchQueue?
}
