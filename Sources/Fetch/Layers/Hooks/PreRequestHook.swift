/// Maps a request to the one actually sent, before it goes out: add a trace option,
/// rewrite a URL, refuse a call. Used by ``RequestPerforming/hooking(pre:post:)``.
public struct PreRequestHook: Sendable {
    /// The name errors use for this hook.
    public let name: String
    private let body: @Sendable (any Request) throws -> any Request

    /// Makes a hook named `name` in errors; `map` returns the request to send (this one or another) or throws.
    public init(_ name: String = "PreRequestHook", map: @escaping @Sendable (any Request) throws -> any Request) {
        self.name = name
        body = map
    }

    /// Runs the hook on `request`.
    public func callAsFunction(_ request: any Request) throws -> any Request { try body(request) }
}
