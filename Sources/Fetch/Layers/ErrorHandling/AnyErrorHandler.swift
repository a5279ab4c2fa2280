/// Handles every error, or those a predicate accepts.
public struct AnyErrorHandler: ErrorHandler {
    private let accepts: @Sendable (any Error, any Request) -> Bool
    private let body: @Sendable (_ error: any Error, _ request: any Request) throws -> ErrorHandlingResult

    /// Handles the errors `where` accepts (all by default) with `handle`.
    public init(
        where accepts: @escaping @Sendable (any Error, any Request) -> Bool = { _, _ in true },
        handle: @escaping @Sendable (_ error: any Error, _ request: any Request) throws -> ErrorHandlingResult
    ) {
        self.accepts = accepts
        body = handle
    }

    /// Whether the predicate accepts the error.
    public func handles(_ error: any Error, for request: any Request) -> Bool { accepts(error, request) }

    /// Runs the closure.
    public func handle(_ error: any Error, for request: any Request) throws -> ErrorHandlingResult {
        try body(error, request)
    }
}
