/// What a download, an upload or a stream adds to its task: it takes the body that skips memory, reports
/// progress and makes the call's result; ``TaskState`` calls it from its effects, never under its lock.
protocol TaskKindHandler: AnyObject, Sendable {
    /// Where the call completes: a serial queue that runs progress reports or reader callbacks first.
    var events: DispatchQueue { get }
    /// Whether response bodies go to ``open(_:expectedLength:)`` and ``write(_:)`` rather than into memory.
    var takesBody: Bool { get }
    /// Whether a body in memory is sent by an upload task, which reports progress.
    var uploadsBody: Bool { get }
    /// Body bytes taken, for the metrics.
    var bodyBytes: Int64 { get }
    /// Takes the head of a response whose body announced `expectedLength` bytes (-1: unknown).
    func open(_ head: Response, expectedLength: Int64) -> BodyOpening
    /// Takes body bytes; returns the error to fail the request with, if any.
    func write(_ data: Data) -> FetchError?
    func sent(total: Int64, expected: Int64)
    /// Makes ready to send `request` again from the first byte (see ``BodyOpening/startOver``).
    func restart(_ request: inout URLRequest) throws
    /// Stops at once, because the caller cancelled; called before the request fails.
    func stop()
    /// Turns the task's result into the call's and hands it to `completion`; on ``events``.
    func finish(
        _ result: Result<Response, any Error>, _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void)
}

/// What a kindHandler makes of the head of a response.
enum BodyOpening {
    case accepted
    /// A status it does not take: the first ``Response/errorBodyLimit`` bytes are kept.
    case declined
    case failed(FetchError)
    /// The partial file cannot be continued: sent again from the first byte.
    case startOver
}
