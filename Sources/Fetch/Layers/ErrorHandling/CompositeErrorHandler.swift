/// Runs several handlers as one link of a chain: every handler that handles the current error
/// runs, in order; a recovery ends the run, and a replacement is the error the next ones see.
public struct CompositeErrorHandler: ErrorHandler {
    /// The handlers, in the order they run.
    public let handlers: [any ErrorHandler]

    /// Makes a composite of `handlers`.
    public init(_ handlers: [any ErrorHandler]) { self.handlers = handlers }

    /// Makes a composite of `handlers`.
    public init(_ handlers: any ErrorHandler...) { self.handlers = handlers }

    /// Whether any handler handles `error`.
    public func handles(_ error: any Error, for request: any Request) -> Bool {
        handlers.contains { $0.handles(error, for: request) }
    }

    /// Runs each handler that handles the current error.
    /// - Throws: the first error a handler throws, naming that handler.
    public func handle(_ error: any Error, for request: any Request) throws -> ErrorHandlingResult {
        var current = error
        var outcome = ErrorHandlingResult.pass
        for handler in handlers where handler.handles(current, for: request) {
            let result: ErrorHandlingResult
            do {
                result = try handler.handle(current, for: request)
            } catch {
                throw FetchError.wrapping(error, layer: handler.name, request: request)
            }
            switch result {
            case .recover: return result
            case .replace(let newError): (current, outcome) = (newError, result)
            case .pass: break
            }
        }
        return outcome
    }
}
