/// An ``Enhancer`` that has to wait for something before it can change a request: a token
/// held by an actor, a keychain read, a signature from another service.
///
/// The enhancing layer awaits ``prepared(for:)`` before the request is sent, then runs
/// the enhancer it returns in this one's place (same priority, same order among the
/// others, also for the response):
///
/// ```swift
/// actor Tokens { var current = "abc" }
///
/// struct ActorBearer: AsyncEnhancer {
///     let tokens: Tokens
///     func prepared(for request: any Request) async throws -> any Enhancer {
///         FixedHeaders(["Authorization": "Bearer \(await tokens.current)"])
///     }
/// }
/// let api = Session().enhanced(by: BaseURL("https://api.example.com"), ActorBearer(tokens: tokens))
/// ```
///
/// A call whose layer holds an async enhancer is sent from a `Task` once every one is
/// prepared, so even over a spy it completes after `perform` returns; a layer with only
/// synchronous enhancers stays synchronous. Cancelling the call while it waits completes it
/// at once with ``FetchError/Code-swift.enum/cancelled`` and cancels the `Task`; nothing is
/// sent. An error `prepared(for:)` throws fails the call with an error naming this enhancer
/// (``FetchError/layer``); `error.thrown(as:)` finds your error.
public protocol AsyncEnhancer: Enhancer {
    /// Waits for what this call needs and returns the enhancer that applies it.
    /// - Parameter request: the caller's request, to read its ``Request/options``.
    /// - Returns: the enhancer run for this call in this one's place.
    /// - Throws: any error, which fails the call before anything is sent.
    func prepared(for request: any Request) async throws -> any Enhancer
}
