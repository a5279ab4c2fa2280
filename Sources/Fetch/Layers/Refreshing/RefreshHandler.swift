/// Work to run after a matching failure before the call is sent once more, such as a token refresh after a 401;
/// ``RequestPerforming/refreshing(with:)`` runs it once at a time, and calls failing meanwhile wait for it.
public protocol RefreshHandler: Sendable {
    /// The name errors use for this handler; its type name by default.
    var name: String { get }
    /// Whether `result` of `request` calls for a refresh (for example a 401 response).
    func shouldRefresh(after result: Result<Response, any Error>, for request: any Request) -> Bool
    /// Refreshes and calls `completion` once: success resends the waiting calls, a failure fails them all.
    func run(completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
}

extension RefreshHandler {
    /// The handler's type name.
    public var name: String { String(describing: Self.self) }
}
