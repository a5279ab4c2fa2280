/// Sees each response before the caller does and decides what happens next (``RequestPerforming/hooking(pre:post:)``).
public struct PostRequestHook: Sendable {
    /// What happens after a post-request hook.
    public enum Decision: Sendable {
        /// Hand the response to the next hook, or to the caller after the last one.
        case `continue`
        /// Send this request; its response goes on to the hooks after this one.
        case send(any Request)
        /// Deliver the response to the caller now, skipping the hooks after this one.
        case completed
    }

    /// The name errors use for this hook.
    public let name: String
    private let body: @Sendable (Response, any Request) throws -> Decision

    /// Makes a hook named `name` in errors; `decide` gets the response and the caller's request, and may throw.
    public init(
        _ name: String = "PostRequestHook",
        decide: @escaping @Sendable (_ response: Response, _ original: any Request) throws -> Decision
    ) {
        self.name = name
        body = decide
    }

    /// Runs the hook.
    public func callAsFunction(_ response: Response, original: any Request) throws -> Decision {
        try body(response, original)
    }
}
