/// What an ``AsyncErrorHandler`` does with an error.
public enum AsyncErrorHandlingResult: Sendable {
    /// Turns the error into a response the caller gets instead.
    case recover(Response)
    /// Gives the caller another error.
    case replace(any Error)
    /// Lets the error through unchanged.
    case pass
    /// Sends the call again, once, through the layers below; what that attempt delivers reaches the caller as it is.
    case retry
}

/// An error handler that may wait (ask the user, consult an actor, read a fallback from disk);
/// used by ``RequestPerforming/handlingErrors(with:)``. A call fails here, with an error or a
/// 4xx or 5xx response, as in ``RequestPerforming/handlingErrors(_:presenter:)``.
public protocol AsyncErrorHandler: Sendable {
    /// The name errors use for this handler; its type name by default.
    var name: String { get }
    /// Whether this handler handles `error` of `request`; decided at once.
    func handles(_ error: any Error, for request: any Request) -> Bool
    /// Handles `error`, which ``handles(_:for:)`` accepted; the call waits for it.
    /// - Throws: any error, which fails the call with an error naming the handler.
    func handle(_ error: any Error, for request: any Request) async throws -> AsyncErrorHandlingResult
}

extension AsyncErrorHandler {
    /// The handler's type name.
    public var name: String { String(describing: Self.self) }
}
