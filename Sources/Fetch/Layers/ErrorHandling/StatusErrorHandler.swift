/// Handles responses with given statuses (400 and above), listed (`401, 403`) or as a range (`500..<600`). The closure
/// gets the failed call's ``FetchError/response`` (as delivered, a verifier's, or the 401 before a failed refresh); to
/// see the error itself, use ``CodeErrorHandler``.
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

    /// Handles responses whose status is in `statuses`: a range (`500..<600`, `500...599`) or any other sequence.
    public init(
        _ statuses: some Sequence<Int>,
        handle: @escaping @Sendable (_ response: Response, _ request: any Request) throws -> ErrorHandlingResult
    ) {
        self.statuses = Set(statuses)
        body = handle
    }

    /// `StatusErrorHandler(401, 403)`; runs of three or more are ranges: `StatusErrorHandler(500..<600)`.
    public var name: String {
        var runs: [[Int]] = []
        for status in statuses.sorted() {
            if let last = runs.last?.last, status == last + 1 {
                runs[runs.count - 1].append(status)
            } else {
                runs.append([status])
            }
        }
        let parts = runs.flatMap { $0.count > 2 ? ["\($0[0])..<\($0[$0.count - 1] + 1)"] : $0.map(String.init) }
        return "StatusErrorHandler(\(parts.joined(separator: ", ")))"
    }

    /// Whether the error carries a response whose status is one of ``statuses``.
    public func handles(_ error: any Error, for request: any Request) -> Bool {
        (error as? FetchError)?.status.map(statuses.contains) ?? false
    }

    /// Runs the closure with the response.
    public func handle(_ error: any Error, for request: any Request) throws -> ErrorHandlingResult {
        guard let response = (error as? FetchError)?.response else { return .pass }
        return try body(response, request)
    }
}
