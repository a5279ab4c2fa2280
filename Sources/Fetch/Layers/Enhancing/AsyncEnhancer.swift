/// An ``Enhancer`` that has to wait before it can change a request (a token held by an actor, a keychain read); the
/// call then completes after `perform` returns, even over a spy. Cancelling the call while it waits completes it at
/// once with ``FetchError/Code-swift.enum/cancelled``.
public protocol AsyncEnhancer: Enhancer {
    /// Waits for what this call needs and returns the enhancer that applies it, in this one's place and order.
    /// - Parameter request: the caller's request, to read its ``Request/options``.
    /// - Throws: any error, which fails the call with an error naming this enhancer before anything is sent.
    func prepared(for request: any Request) async throws -> any Enhancer
}
