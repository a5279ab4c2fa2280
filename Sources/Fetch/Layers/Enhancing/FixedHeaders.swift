/// Adds the same header fields to every request. A field the request already sets is left
/// alone unless `replacingExisting` is true; repeated names are joined with `", "`. A name or
/// value that cannot be sent fails every call with ``FetchError/Code-swift.enum/invalidRequest``.
public struct FixedHeaders: Enhancer, RequestOnlyEnhancer {
    /// The fields added.
    public let headers: HTTPHeaders
    /// Whether the fields replace ones the request sets itself.
    public let replacingExisting: Bool
    private let fields: Result<[(name: String, value: String)], any Error>

    /// Adds `headers`; `replacingExisting` (`false` by default) replaces fields the request sets.
    public init(_ headers: HTTPHeaders, replacingExisting: Bool = false) {
        self.headers = headers
        self.replacingExisting = replacingExisting
        fields = Result {
            for field in headers { try HeaderRules.validate(name: field.name, value: field.value) }
            return headers.joinedByName().map { (name: $0.key, value: $0.value) }
        }
    }

    /// Adds the fields.
    public func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        for field in try fields.get() {
            try urlRequest.setHeader(field.name, field.value, replacing: replacingExisting)
        }
    }
}
