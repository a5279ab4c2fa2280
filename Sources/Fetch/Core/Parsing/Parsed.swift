/// A model together with the response it was parsed from, as `parsed(_:)` on ``RequestPerforming`` returns it.
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
