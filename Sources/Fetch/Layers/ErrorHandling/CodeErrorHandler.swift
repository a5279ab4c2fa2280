/// Handles errors by their ``FetchError/Code-swift.enum``, such as
/// ``FetchError/Code-swift.enum/notConnected``; a `URLError` is matched by the code it maps to.
public struct CodeErrorHandler: ErrorHandler {
    /// The codes handled.
    public let codes: Set<FetchError.Code>
    private let body: @Sendable (_ error: FetchError, _ request: any Request) throws -> ErrorHandlingResult

    /// Handles errors whose code is one of `codes` with `handle`.
    public init(
        _ codes: FetchError.Code...,
        handle: @escaping @Sendable (_ error: FetchError, _ request: any Request) throws -> ErrorHandlingResult
    ) {
        self.codes = Set(codes)
        body = handle
    }

    /// `CodeErrorHandler(notConnected)`.
    public var name: String { "CodeErrorHandler(\(codes.map(\.rawValue).sorted().joined(separator: ", ")))" }

    /// Whether the error's code is one of ``codes``.
    public func handles(_ error: any Error, for request: any Request) -> Bool {
        codes.contains(FetchError.mapping(error, method: nil, url: nil).code)
    }

    /// Runs the closure with the error as a ``FetchError``.
    public func handle(_ error: any Error, for request: any Request) throws -> ErrorHandlingResult {
        try body(FetchError.mapping(error, method: request.method, url: request.url), request)
    }
}
