/// Work to run after a matching failure before the call is resent once, such as a token
/// refresh after a 401. Used by ``RequestPerforming/resuming(with:)``.
///
/// The performer runs the work at most once at a time: calls that fail the same way while
/// it runs wait for it rather than starting their own.
public protocol ResumableHandler: Sendable {
    /// The name errors use for this handler; its type name by default.
    var name: String { get }
    /// Whether `result` of `request` calls for the work (for example a 401 response).
    func shouldResume(after result: Result<Response, any Error>, for request: any Request) -> Bool
    /// Does the work and calls `completion` once: success resends the waiting calls, a
    /// failure fails them all with that error.
    func run(completion: @escaping @Sendable (Result<Void, any Error>) -> Void)
}

extension ResumableHandler {
    /// The handler's type name.
    public var name: String { String(describing: Self.self) }
}
