/// What an ``ErrorHandler`` does with an error.
public enum ErrorHandlingResult: Sendable {
    /// Turns the error into a response the caller gets instead (a cached copy, a default).
    case recover(Response)
    /// Gives the caller another error (the app's own, a friendlier one).
    case replace(any Error)
    /// Lets the error through unchanged.
    case pass
}

/// One link of an error-handling chain (``RequestPerforming/handlingErrors(_:presenter:)``): the first to handle wins.
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

extension ErrorHandlingResult {
    /// The failure, or a 4xx or 5xx response as its ``FetchError/Code-swift.enum/httpStatus`` error.
    static func error(of result: Result<Response, any Error>) -> (any Error)? {
        switch result {
        case .failure(let failure): failure
        case .success(let response): response.status >= 400 ? FetchError.httpStatus(response) : nil
        }
    }

    /// What the caller of `request` gets when this outcome handled `error` (from `result`), and the error to show.
    func applied(
        to result: Result<Response, any Error>, failingWith error: any Error, for request: any Request
    ) -> (result: Result<Response, any Error>, shown: (any Error)?) {
        switch self {
        case .recover(let response):
            // A stream's reader may have the head and some body: no response can replace the rest.
            guard request.options.kind.canBeSentAgain else { return (result, error) }
            return (.success(response.answering(request)), nil)
        case .replace(let newError):
            // The logging layer above names what came, not only what replaced it.
            request.attemptLog?.received(result, replaced: true)
            return (.failure(newError), newError)
        case .pass: return (result, error)
        }
    }
}
