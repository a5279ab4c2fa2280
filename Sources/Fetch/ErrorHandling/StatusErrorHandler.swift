/// Handles responses with given HTTP statuses (400 and above), such as 401 or 503.
///
/// ```swift
/// StatusErrorHandler(401, 403) { response, _ in .replace(AppError.signedOut) }
/// StatusErrorHandler(500..<600) { response, _ in .replace(AppError.serverDown) }
/// ```
public struct StatusErrorHandler: ErrorHandler {
    /// The statuses handled.
    public let statuses: Set<Int>
    private let body: @Sendable (Response, any Request) throws -> ErrorHandlingResult

    /// Handles responses whose status is one of `statuses` with `handle`.
    public init(
        _ statuses: Int...,
        handle: @escaping @Sendable (Response, any Request) throws -> ErrorHandlingResult
    ) {
        self.statuses = Set(statuses)
        body = handle
    }

    /// Handles responses whose status is in `statuses`, like `StatusVerifier(200..<300)`:
    /// `StatusErrorHandler(500..<600) { ... }`.
    public init(
        _ statuses: Range<Int>,
        handle: @escaping @Sendable (Response, any Request) throws -> ErrorHandlingResult
    ) {
        self.statuses = Set(statuses)
        body = handle
    }

    /// Handles responses whose status is in `statuses`: `StatusErrorHandler(500...599) { ... }`.
    public init(
        _ statuses: ClosedRange<Int>,
        handle: @escaping @Sendable (Response, any Request) throws -> ErrorHandlingResult
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
