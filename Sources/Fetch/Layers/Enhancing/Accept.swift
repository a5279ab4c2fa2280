/// Sends an `Accept` field with every request that does not set one.
public struct Accept: Enhancer, RequestOnlyEnhancer {
    private let header: FixedHeaders

    /// Makes the enhancer for `mediaTypes`, joined with `", "`.
    public init(_ mediaTypes: String...) {
        header = FixedHeaders(["Accept": mediaTypes.joined(separator: ", ")])
    }

    /// `Accept: application/json`.
    public static let json = Accept("application/json")

    /// Adds the field unless the request sets one.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` for a value that cannot be sent.
    public func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        try header.enhance(&urlRequest, for: request)
    }
}
