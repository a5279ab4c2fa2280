/// Fails every response whose status is not accepted with ``FetchError/Code-swift.enum/httpStatus``, which carries it.
///
/// ```swift
/// Session().enhanced(by: StatusVerifier(200..<300))
/// ```
public struct StatusVerifier: Enhancer {
    private let accepts: @Sendable (Int) -> Bool
    private let accepted: String

    /// Accepts the statuses in `range`.
    public init(_ range: Range<Int>) {
        accepts = { range.contains($0) }
        accepted = "\(range.lowerBound)..<\(range.upperBound)"
    }

    /// Accepts the statuses in `statuses`.
    public init(_ statuses: Set<Int>) {
        accepts = { statuses.contains($0) }
        accepted = statuses.sorted().map(String.init).joined(separator: ", ")
    }

    /// `StatusVerifier(200..<300)`.
    public var name: String { "StatusVerifier(\(accepted))" }

    /// Checks the status.
    public func enhance(_ response: inout Response) throws {
        guard accepts(response.status) else { throw FetchError.httpStatus(response) }
    }
}
