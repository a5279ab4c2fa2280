/// One entry a logging layer writes: a call that ended.
public struct LogEvent: Sendable, CustomStringConvertible {
    /// How serious the entry is.
    public enum Level: String, Sendable {
        /// A call that got a response (whatever its status).
        case info
        /// A call that failed or was cancelled.
        case error
    }

    /// How serious the entry is.
    public let level: Level
    /// The text, one line per part (`GET https://... -> 200 (12.3 ms)`, then headers and bodies).
    public let message: String
    /// The request as the logging layer got it.
    public let request: any Request
    /// How long the call took, when ``LogOptions/time`` was asked for.
    public let duration: Duration?

    /// The message.
    public var description: String { message }
}

/// How a logging layer logs: what, with which values hidden, and where to (one closure, so any logger fits).
public struct LogConfiguration: Sendable {
    /// What to write about each call; a request can replace it with ``RequestOptions/logOptions``.
    public var options: LogOptions
    /// What to hide.
    public var redaction: Redaction
    /// The most bytes of a body written.
    public var bodyLimit: Int
    /// Where entries go.
    public var sink: @Sendable (LogEvent) -> Void
    /// The current time on a monotonic clock, to measure calls; replaceable for tests.
    public var clock: @Sendable () -> Duration = LogConfiguration.monotonicNow

    /// Makes a configuration: by default method, URL, status and time are written, the default
    /// sensitive headers hidden and bodies cut at 1 KiB; `sink` receives each entry.
    public init(
        options: LogOptions = .default, redaction: Redaction = .default, bodyLimit: Int = 1024,
        sink: @escaping @Sendable (LogEvent) -> Void
    ) {
        self.options = options
        self.redaction = redaction
        self.bodyLimit = bodyLimit
        self.sink = sink
    }

    /// The default options, printed to standard output.
    public static var `default`: LogConfiguration { LogConfiguration { print($0.message) } }

    private static let origin = ContinuousClock.now

    /// Time since the first use of the logging layer, on the continuous clock.
    public static let monotonicNow: @Sendable () -> Duration = { ContinuousClock.now - origin }
}
