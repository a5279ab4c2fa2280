/// Adds one header field whose value is computed for each request.
///
/// ```swift
/// ComputedHeader("X-Request-ID") { _ in UUID().uuidString }
/// ```
///
/// A field the request already sets is left alone unless `replacingExisting` is true; a value
/// holding CR, LF or NUL fails the call with ``FetchError/Code-swift.enum/invalidRequest``.
public struct ComputedHeader: Enhancer, RequestOnlyEnhancer {
    /// The name of the field.
    public let field: String
    /// Whether the value replaces one the request sets itself.
    public let replacingExisting: Bool
    private let value: @Sendable (any Request) throws -> String?

    /// Adds `field` with the value `value` computes from the caller's request (`nil` adds
    /// nothing; a throw fails the call); `replacingExisting` is `false` by default.
    public init(
        _ field: String, replacingExisting: Bool = false, value: @escaping @Sendable (any Request) throws -> String?
    ) {
        self.field = field
        self.replacingExisting = replacingExisting
        self.value = value
    }

    /// `ComputedHeader(Name)`.
    public var name: String { "ComputedHeader(\(field))" }

    /// Adds the field with its computed value.
    public func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        guard replacingExisting || urlRequest.header(field) == nil,
            let computed = try value(request)
        else { return }
        try urlRequest.setHeader(field, computed, replacing: true)
    }
}
