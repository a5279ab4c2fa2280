/// One event of a Server-Sent Events stream (`text/event-stream`), as the WHATWG HTML
/// standard defines it.
///
/// ```swift
/// let stream = try await api.stream(Completions(prompt: "Hello"))
/// for try await event in stream.events where event.type == "delta" {
///     print(event.data, terminator: "")
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The event type: the last `event:` field of the event, `"message"` when it had none.
    public var type: String
    /// The `data:` fields of the event, joined with LF.
    public var data: String
    /// The last event ID of the stream when the event was dispatched: set by an `id:`
    /// field (in this event or an earlier one), `""` when none was ever set. This is what a
    /// client sends as `Last-Event-ID` when it reconnects.
    public var id: String
    /// The reconnection time in milliseconds that the stream last set with a `retry:`
    /// field (in this event or an earlier one), `nil` when none did.
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
