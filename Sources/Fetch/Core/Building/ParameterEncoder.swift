/// Turns an `Encodable` struct or `[String: ...]` dictionary into query items named by where each value sits
/// (`page[size]`, `tags[]`), for a query string or a form body, by the rules in <doc:RequestsAndModels>; anything
/// else, or an error the value throws, fails with ``FetchError/Code-swift.enum/encoding`` and nothing is sent.
public struct ParameterEncoder: Sendable {
    /// How an array is written.
    public enum ArrayEncoding: Sendable {
        /// `tags[]=a&tags[]=b` (Rails, PHP, Alamofire's default).
        case brackets
        /// `tags=a&tags=b`.
        case repeated
        /// `tags[0]=a&tags[1]=b`.
        case indexed
    }

    /// How a boolean is written.
    public enum BoolEncoding: Sendable {
        /// `true` and `false`.
        case literal
        /// `1` and `0`.
        case numeric
    }

    /// How a date is written.
    public enum DateEncoding: Sendable {
        /// ISO 8601 with seconds, in UTC: `2026-11-24T18:30:00Z`.
        case iso8601
        /// Whole and fractional seconds since 1970: `1795545000` or `1795545000.5`.
        case secondsSince1970
        /// Milliseconds since 1970, rounded: `1795545000000`.
        case millisecondsSince1970
        /// Your own text.
        case custom(@Sendable (Date) -> String)
    }

    /// How arrays are written; ``ArrayEncoding/brackets`` by default.
    public var arrayEncoding: ArrayEncoding
    /// How booleans are written; ``BoolEncoding/literal`` by default.
    public var boolEncoding: BoolEncoding
    /// How dates are written; ``DateEncoding/iso8601`` by default.
    public var dateEncoding: DateEncoding

    /// An encoder with the given rules.
    public init(
        arrayEncoding: ArrayEncoding = .brackets, boolEncoding: BoolEncoding = .literal,
        dateEncoding: DateEncoding = .iso8601
    ) {
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
        self.dateEncoding = dateEncoding
    }

    /// The query items for `value`, in order.
    /// - Throws: ``FetchError/Code-swift.enum/encoding`` when `value` does not encode or is not keyed.
    public func queryItems<Value: Encodable>(_ value: Value) throws -> [URLQueryItem] {
        let output = ParameterItemEncoder.Output()
        try FetchError.attempt("encode \(Value.self) as parameters", as: .encoding) {
            try value.encode(to: ParameterItemEncoder(output: output, name: nil, codingPath: [], rules: self))
        }
        guard output.topLevelIsKeyed else {
            throw FetchError(
                .encoding,
                reason: "\(Value.self) is not a keyed value (a struct or a [String: ...] "
                    + "dictionary), so it cannot become named parameters")
        }
        return output.items
    }

    /// The percent-encoded query string for `value`: `a=1&b=2`.
    /// - Throws: ``FetchError/Code-swift.enum/encoding``, as ``queryItems(_:)``.
    public func query<Value: Encodable>(_ value: Value) throws -> String {
        QueryEncoder.query(try queryItems(value))
    }

    /// The `application/x-www-form-urlencoded` body for `value`: ``query(_:)`` with a space as `+`.
    /// - Throws: ``FetchError/Code-swift.enum/encoding``, as ``queryItems(_:)``.
    public func form<Value: Encodable>(_ value: Value) throws -> Data {
        Data(QueryEncoder.form(try queryItems(value).map { ($0.name, $0.value ?? "") }).utf8)
    }

    func text(of date: Date) -> String {
        switch dateEncoding {
        case .iso8601: return date.ISO8601Format()
        case .secondsSince1970: return Self.number(date.timeIntervalSince1970)
        case .millisecondsSince1970: return String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
        case .custom(let format): return format(date)
        }
    }

    /// A floating-point number as its shortest text, without `.0` for whole numbers.
    static func number(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
