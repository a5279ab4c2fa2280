/// Handles responses with given HTTP statuses (400 and above), such as 401 or 503.
///
/// ```swift
/// StatusErrorHandler(401, 403) { response, request in .replace(AppError.signedOut) }
/// StatusErrorHandler(500..<600) { response, request in .replace(AppError.serverDown(response.status)) }
/// ```
///
/// The closure gets two values:
/// - `response`: the ``Response`` with the handled status: its `status`, `headers`, `body`
///   (an error body to read), `url` and the `urlRequest` that was sent. It is the response
///   carried by the failed call's ``FetchError`` (``FetchError/response``), whether that error
///   is the `httpStatus` of a response delivered as it came, a verifier's, or a refresh that
///   failed after the 401 (whose own error is then the ``FetchError``'s `underlying`).
/// - `request`: the request as the caller made it (`request as? GetUser` works).
///
/// It returns what to do: `.replace(error)`, `.recover(response)` or `.pass`. It handles an
/// error only when a response with one of the statuses came; to see the error itself, use
/// ``CodeErrorHandler`` or ``AnyErrorHandler``, whose closures get `(error, request)`.
public struct StatusErrorHandler: ErrorHandler {
    /// The statuses handled.
    public let statuses: Set<Int>
    private let body: @Sendable (_ response: Response, _ request: any Request) throws -> ErrorHandlingResult

    /// Handles responses whose status is one of `statuses` with `handle`.
    public init(
        _ statuses: Int...,
        handle: @escaping @Sendable (_ response: Response, _ request: any Request) throws -> ErrorHandlingResult
    ) {
        self.init(statuses, handle: handle)
    }

    /// Handles responses whose status is in `statuses`, a range like `StatusVerifier(200..<300)`
    /// or any other collection: `StatusErrorHandler(500..<600) { ... }`,
    /// `StatusErrorHandler(500...599) { ... }`.
    public init(
        _ statuses: some Sequence<Int>,
        handle: @escaping @Sendable (_ response: Response, _ request: any Request) throws -> ErrorHandlingResult
    ) {
        self.statuses = Set(statuses)
        body = handle
    }

    /// `StatusErrorHandler(401, 403)`.
    /// Runs of three or more statuses are written as a range: `StatusErrorHandler(500..<600)`.
    public var name: String {
        var parts: [String] = []
        var run: [Int] = []
        func flush() {
            parts += run.count > 2 ? ["\(run[0])..<\(run[run.count - 1] + 1)"] : run.map(String.init)
            run = []
        }
        for status in statuses.sorted() {
            if let last = run.last, status != last + 1 { flush() }
            run.append(status)
        }
        flush()
        return "StatusErrorHandler(\(parts.joined(separator: ", ")))"
    }

    /// Whether the error carries a response whose status is one of ``statuses``.
    public func handles(_ error: any Error, for request: any Request) -> Bool {
        guard let status = (error as? FetchError)?.status else { return false }
        return statuses.contains(status)
    }

    /// Runs the closure with the response.
    /// - Throws: what the closure throws.
    public func handle(_ error: any Error, for request: any Request) throws -> ErrorHandlingResult {
        guard let response = (error as? FetchError)?.response else { return .pass }
        return try body(response, request)
    }
}
