extension RequestBody {
    /// Fields as `application/x-www-form-urlencoded`, in order, percent-encoded (space as `+`, a
    /// literal `+` as `%2B`) so every value arrives as given.
    public static func form(_ fields: [(String, String)]) -> RequestBody {
        RequestBody(
            source: .data(Data(QueryEncoder.form(fields).utf8)), contentType: "application/x-www-form-urlencoded")
    }

    /// An `Encodable` value as `application/x-www-form-urlencoded`, encoded (see ``RequestBody``) by `encoder` or,
    /// when `nil`, the request's or the stack's (see ``Coders``), else `ParameterEncoder()`.
    public static func form<Value: Encodable & Sendable>(_ value: Value, encoder: ParameterEncoder? = nil)
        -> RequestBody
    {
        RequestBody(
            source: .encoded { coders in try (encoder ?? coders.parameterEncoder ?? ParameterEncoder()).form(value) },
            contentType: "application/x-www-form-urlencoded")
    }

    /// Fields as `application/x-www-form-urlencoded`, sorted by name for a stable body.
    public static func form(_ fields: [String: String]) -> RequestBody {
        form(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
