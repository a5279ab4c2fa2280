/// What a logging layer writes about each call.
public struct LogOptions: OptionSet, Sendable, Hashable {
    /// The bits.
    public let rawValue: Int

    /// Makes options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The method.
    public static let method = LogOptions(rawValue: 1 << 0)
    /// The URL (redacted).
    public static let url = LogOptions(rawValue: 1 << 1)
    /// The status, or the error.
    public static let status = LogOptions(rawValue: 1 << 2)
    /// How long the call took.
    public static let time = LogOptions(rawValue: 1 << 3)
    /// The headers sent (redacted).
    public static let requestHeaders = LogOptions(rawValue: 1 << 4)
    /// The body sent, up to the configured limit.
    public static let requestBody = LogOptions(rawValue: 1 << 5)
    /// The headers received (redacted).
    public static let responseHeaders = LogOptions(rawValue: 1 << 6)
    /// The body received, up to the configured limit.
    public static let responseBody = LogOptions(rawValue: 1 << 7)
    /// A `curl` command for what was sent (redacted).
    public static let curl = LogOptions(rawValue: 1 << 8)

    /// The response's ``ResponseMetrics`` on a line of their own; in no preset.
    public static let metrics = LogOptions(rawValue: 1 << 9)

    /// A line for each attempt that another followed (a retry, a resend after a refresh, a hook's request), written
    /// when the next is sent: `GET https://api.example.com/jobs -> 503 (attempt 1, sent again)`. In no preset.
    public static let attempts = LogOptions(rawValue: 1 << 10)

    /// Method, URL, status and time: one line per call.
    public static let `default`: LogOptions = [.method, .url, .status, .time]
    /// The default and both sets of headers.
    public static let headers: LogOptions = [.default, .requestHeaders, .responseHeaders]
    /// Every field of the call, its bodies and a `curl` command; not ``metrics`` or ``attempts``.
    public static let all: LogOptions = [.headers, .requestBody, .responseBody, .curl]
    /// Nothing: the call is not logged.
    public static let none: LogOptions = []
}
