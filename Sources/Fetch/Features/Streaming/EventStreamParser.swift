/// Turns the bytes of a `text/event-stream` body into ``ServerSentEvent``s as they arrive, following the WHATWG HTML
/// standard's "interpreting an event stream" (a byte order mark and line ends split across pieces included).
///
/// Text is decoded as UTF-8, invalid bytes becoming U+FFFD; a malformed field is ignored, never an error.
public struct EventStreamParser: Sendable {
    /// The default of ``maximumLineLength`` and ``maximumEventSize``: 1 MiB.
    public static let defaultLimit = 1 << 20

    /// The longest line held without its end, in bytes.
    public var maximumLineLength: Int { lines.maximumLength }
    /// The most data one event may gather before its blank line, in bytes.
    public let maximumEventSize: Int

    private var lines: LineSplitter
    /// The first bytes, while it is not known yet whether they are a byte order mark.
    private var head: Data? = Data()
    private var dataBuffer = ""
    /// The bytes of the event's `data` fields, one more for each line end; 0 while it has none.
    private var dataSize = 0
    private var eventType = ""
    private var lastEventID = ""
    private var reconnectionTime: Int?

    /// Makes a parser for one stream.
    public init(maximumLineLength: Int = defaultLimit, maximumEventSize: Int = defaultLimit) {
        lines = LineSplitter(endings: .sse, maximumLength: maximumLineLength)
        self.maximumEventSize = maximumEventSize
    }

    /// Takes the next bytes of the stream and returns the events they complete, in order.
    /// - Throws: ``FetchError/Code-swift.enum/bodyTooLarge`` when a line or an event is over its limit.
    public mutating func feed(_ bytes: Data) throws -> [ServerSentEvent] {
        guard let text = skippingByteOrderMark(bytes) else { return [] }
        var events: [ServerSentEvent] = []
        for line in try lines.feed(text) {
            if let event = try process(line) { events.append(event) }
        }
        return events
    }

    /// Ends the stream, discarding what has not been dispatched, as the standard says.
    public mutating func finish() {
        _ = lines.finish()
        head = nil
        resetEvent()
    }

    /// The bytes after the byte order mark; `nil` until the first three bytes are known.
    private mutating func skippingByteOrderMark(_ bytes: Data) -> Data? {
        guard var start = head else { return bytes }
        start.append(bytes)
        let mark = Data([0xEF, 0xBB, 0xBF])
        if start.count < 3, mark.starts(with: start) {
            head = start
            return nil
        }
        head = nil
        return start.starts(with: mark) ? start.dropFirst(3) : start
    }

    private mutating func process(_ line: Data) throws -> ServerSentEvent? {
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        // A line without a colon is a field name with an empty value.
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        var value = line[colon...].dropFirst()
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch String(decoding: line[..<colon], as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if dataSize > 0 { dataBuffer += "\n" }
            dataSize += value.count + 1
            guard dataSize <= maximumEventSize else {
                throw FetchError(
                    .bodyTooLarge, reason: "an event's data grew past the limit of \(maximumEventSize) bytes")
            }
            dataBuffer += String(decoding: value, as: UTF8.self)
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            let text = String(decoding: value, as: UTF8.self)
            if text.isASCIIDigits, let time = Int(text) { reconnectionTime = time }
        default:
            break
        }
        return nil
    }

    /// The event gathered so far, if it has data; starts the next one either way.
    private mutating func dispatch() -> ServerSentEvent? {
        defer { resetEvent() }
        guard dataSize > 0 else { return nil }
        return ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType, data: dataBuffer, id: lastEventID, retry: reconnectionTime
        )
    }

    private mutating func resetEvent() {
        dataBuffer = ""
        dataSize = 0
        eventType = ""
    }
}
