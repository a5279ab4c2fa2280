/// What an ``AsyncErrorHandler`` does with an error.
public enum AsyncErrorHandlingResult: Sendable {
    /// Turns the error into a response the caller gets instead.
    case recover(Response)
    /// Gives the caller another error.
    case replace(any Error)
    /// Lets the error through unchanged.
    case pass
    /// Sends the call again, once, through the layers below; what that attempt delivers
    /// reaches the caller as it is.
    case retry
}

/// An error handler that may wait: ask the user, refresh something held by an actor, read
/// a fallback from disk. Used by ``RequestPerforming/handlingErrors(with:)``.
///
/// ```swift
/// struct AskToRetry: AsyncErrorHandler {
///     let dialog: RetryDialog
///     func handles(_ error: any Error, for request: any Request) -> Bool {
///         (error as? FetchError)?.code == .notConnected
///     }
///     func handle(_ error: any Error, for request: any Request) async throws -> AsyncErrorHandlingResult {
///         await dialog.userWantsToRetry() ? .retry : .replace(AppError.offline)
///     }
/// }
/// ```
///
/// A call fails here as in ``RequestPerforming/handlingErrors(_:presenter:)``: with an error, or with a response of
/// 400 or more (seen as its ``FetchError/Code-swift.enum/httpStatus`` error, delivered as
/// the response when the handler passes).
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
