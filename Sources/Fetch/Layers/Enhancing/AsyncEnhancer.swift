/// An ``Enhancer`` that has to wait before it can change a request (a token held by an actor, a keychain read).
///
/// The enhancing layer awaits ``prepared(for:)`` in a `Task` before the request is sent and runs the enhancer it
/// returns in this one's place (same priority and order), so the call completes after `perform` returns, even over a
/// spy; a layer with only synchronous enhancers stays synchronous. Cancelling the call while it waits completes it at
/// once with ``FetchError/Code-swift.enum/cancelled``, and nothing is sent. An error `prepared(for:)` throws fails the
/// call with an error naming this enhancer; `error.thrown(as:)` finds yours.
public protocol AsyncEnhancer: Enhancer {
    /// Waits for what this call needs and returns the enhancer that applies it.
    /// - Parameter request: the caller's request, to read its ``Request/options``.
    /// - Throws: any error, which fails the call before anything is sent.
    func prepared(for request: any Request) async throws -> any Enhancer
}
