/// The moments and counts of one request of a ``Session`` that become its
/// ``ResponseMetrics``, kept by ``TaskState`` under its lock: nothing is noted per chunk.
struct TaskMarks {
    /// When the request was admitted, on the monotonic clock (nanoseconds).
    let admitted: UInt64
    /// When the request was admitted, on the wall clock.
    let start: Date
    /// When its first task started.
    private var started: UInt64?
    /// When the head of its response arrived.
    private var responded: UInt64?
    var bytesSent: Int64 = 0
    var redirects = 0

    init() {
        admitted = Self.now
        start = Date()
    }

    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Notes that the request's first task started; later tasks (a resent hop) change nothing.
    mutating func taskStarted() {
        if started == nil { started = Self.now }
    }

    /// Notes the head of a response; a later one (after a redirect that was sent again) wins.
    mutating func responseArrived() { responded = Self.now }

    /// The metrics of a request that ended now with `bytesReceived` body bytes.
    func metrics(bytesReceived: Int64) -> ResponseMetrics {
        let end = Self.now
        var metrics = ResponseMetrics()
        metrics.start = start
        metrics.queued = started.map { Self.duration(from: admitted, to: $0) }
        metrics.timeToFirstByte = responded.map { Self.duration(from: admitted, to: $0) }
        metrics.total = Self.duration(from: admitted, to: end)
        metrics.redirects = redirects
        metrics.bytesSent = bytesSent
        metrics.bytesReceived = bytesReceived
        return metrics
    }

    private static func duration(from start: UInt64, to end: UInt64) -> Duration {
        .nanoseconds(Int64(clamping: end >= start ? end - start : 0))
    }
}
