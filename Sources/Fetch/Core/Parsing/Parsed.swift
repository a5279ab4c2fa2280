/// A model together with the response it was parsed from: the status, the headers, the
/// metrics, the request as sent. Returned by `parsed(_:)` on ``RequestPerforming``.
///
/// ```swift
/// let user = try await api.parsed(GetUser(id: 7))
/// print(user.value.name, user.status, user.response.headers["ETag"] ?? "")
/// ```
public struct Parsed<Value: Sendable>: Sendable {
    /// The model.
    public let value: Value
    /// The response it was parsed from.
    public let response: Response

    /// Pairs a model with its response.
    public init(value: Value, response: Response) {
        self.value = value
        self.response = response
    }

    /// The response's status.
    public var status: Int { response.status }
    /// The response's header fields.
    public var headers: HTTPHeaders { response.headers }
}
