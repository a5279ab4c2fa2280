/// Sets `Content-Type` on every request that has a body, keeping the body's own content type
/// (``RequestBody/contentType``) or a field the request sets unless `replacingExisting` is true.
public struct ContentType: Enhancer, RequestOnlyEnhancer {
    /// The media type sent.
    public let mediaType: String
    /// Whether it replaces a content type the request or its body sets.
    public let replacingExisting: Bool

    /// Sets `mediaType`, such as `"application/json"`; `replacingExisting` is `false` by default.
    public init(_ mediaType: String, replacingExisting: Bool = false) {
        self.mediaType = mediaType
        self.replacingExisting = replacingExisting
    }

    /// `Content-Type: application/json` for requests with a body.
    public static let json = ContentType("application/json")

    /// Sets the field when the request has a body.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` for a value that cannot be sent.
    public func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        guard urlRequest.httpBody != nil || urlRequest.httpBodyStream != nil else { return }
        try urlRequest.setHeader("Content-Type", mediaType, replacing: replacingExisting)
    }
}
