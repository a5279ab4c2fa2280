/// One event of a Server-Sent Events stream (`text/event-stream`), as the WHATWG HTML standard defines it.
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event type: the last `event:` field of the event, `"message"` when it had none.
    public var type: String
    /// The `data:` fields of the event, joined with LF.
    public var data: String
    /// The stream's last event ID when the event was dispatched (from an `id:` field of this
    /// event or an earlier one, `""` when none), which a client sends as `Last-Event-ID`.
    public var id: String
    /// The reconnection time in milliseconds the stream last set with `retry:`, `nil` when none.
    public var retry: Int?

    /// Makes an event.
    public init(type: String = "message", data: String, id: String = "", retry: Int? = nil) {
        self.type = type
        self.data = data
        self.id = id
        self.retry = retry
    }

    /// For example `message: hello (id 7)`.
    public var description: String {
        "\(type): \(data)" + (id.isEmpty ? "" : " (id \(id))")
    }
}
