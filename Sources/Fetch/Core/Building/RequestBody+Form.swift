extension RequestBody {
    /// Fields as `application/x-www-form-urlencoded`, in order.
    ///
    /// Names and values are percent-encoded (space as `+`, a literal `+` as `%2B`), so
    /// every value arrives as given.
    public static func form(_ fields: [(String, String)]) -> RequestBody {
        RequestBody(
            source: .data(Data(QueryEncoder.form(fields).utf8)), contentType: "application/x-www-form-urlencoded")
    }

    /// An `Encodable` value as `application/x-www-form-urlencoded`, by the rules of
    /// ``ParameterEncoder`` (nested values as `a[b]`, arrays, booleans, dates by strategy,
    /// `nil` omitted, space as `+`).
    ///
    /// ```swift
    /// var body: RequestBody? { .form(Login(user: "ada", password: "a+b c")) }  // user=ada&password=a%2Bb+c
    /// ```
    /// - Parameters:
    ///   - value: encoded when the request is built; a failure fails the call with
    ///     ``FetchError/Code-swift.enum/encoding`` and nothing is sent.
    ///   - encoder: the rules; when `nil` (the default), the request's or the stack's
    ///     (see ``Coders``), else `ParameterEncoder()`.
    public static func form<Value: Encodable & Sendable>(_ value: Value, encoder: ParameterEncoder? = nil)
        -> RequestBody
    {
        RequestBody(
            source: .encoded { coders in try (encoder ?? coders.parameters).form(value) },
            contentType: "application/x-www-form-urlencoded")
    }

    /// Fields as `application/x-www-form-urlencoded`, sorted by name for a stable body.
    public static func form(_ fields: [String: String]) -> RequestBody {
        form(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
}
