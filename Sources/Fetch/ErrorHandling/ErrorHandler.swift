/// What an ``ErrorHandler`` does with an error.
public enum ErrorHandlingResult: Sendable {
    /// Turns the error into a response the caller gets instead (a cached copy, a default).
    case recover(Response)
    /// Gives the caller another error (the app's own, a friendlier one).
    case replace(any Error)
    /// Lets the error through unchanged.
    case pass
}

/// One link of an error-handling chain: says whether it handles an error, then handles it.
///
/// Chains are built with ``RequestPerforming/handlingErrors(_:presenter:)``; the first
/// handler that handles an error wins. Ready-made handlers match by code
/// (``CodeErrorHandler``), by HTTP status (``StatusErrorHandler``) or anything
/// (``AnyErrorHandler``); ``CompositeErrorHandler`` runs several.
public protocol ErrorHandler: Sendable {
    /// The name errors and presenters use for this handler; its type name by default.
    var name: String { get }
    /// Whether this handler handles `error` of `request`.
    func handles(_ error: any Error, for request: any Request) -> Bool
    /// Handles `error`, which ``handles(_:for:)`` accepted.
    /// - Throws: any error, which fails the call with an error naming the handler.
    func handle(_ error: any Error, for request: any Request) throws -> ErrorHandlingResult
}

extension ErrorHandler {
    /// The handler's type name.
    public var name: String { String(describing: Self.self) }
}
