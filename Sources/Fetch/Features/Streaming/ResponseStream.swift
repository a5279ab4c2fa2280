/// A response whose body is read as it arrives: its head (``response``) at once, then its
/// body as raw ``chunks``, as ``lines`` or as Server-Sent ``events``.
///
/// Read one view, once: they share the body. Leaving the loop early, cancelling the reading `Task`, calling
/// ``cancel()`` or letting go of the stream (a view counts as a reference) ends the transfer like a cancelled call. A
/// failure after the body started is thrown by the loop after the chunks that arrived before it.
public final class ResponseStream: Sendable {
    /// The head of the response: status, headers, final URL; its body is empty.
    public let response: Response
    let sink: StreamSink
    let maximumLineLength: Int
    private let dropped: DroppedHandle

    init(response: Response, sink: StreamSink, maximumLineLength: Int, dropped: DroppedHandle) {
        self.response = response
        self.sink = sink
        self.maximumLineLength = maximumLineLength
        self.dropped = dropped
    }

    deinit {
        guard !sink.hasEnded else { return }
        dropped.record("its ResponseStream was dropped after \(sink.machine.withLock { $0.read }) bytes read")
        sink.cancel()
    }

    /// Ends the transfer; a loop reading the stream then throws ``FetchError/Code-swift.enum/cancelled``.
    public func cancel() { sink.cancel() }

    /// The body as it arrives, in the pieces the network delivered.
    public var chunks: Chunks { Chunks(stream: self) }

    /// The body as lines of UTF-8 text (invalid bytes become U+FFFD), split at LF or CRLF,
    /// without their ends; a last line without an end is delivered too.
    public var lines: Lines { Lines(stream: self) }

    /// The body as Server-Sent Events (see ``EventStreamParser``).
    public var events: Events { Events(stream: self) }

    func nextChunk() async throws -> Data? {
        do { return try await sink.next() } catch { throw named(error) }
    }

    /// `error` naming the request's method and URL, as the call's own errors do.
    func named(_ error: any Error) -> any Error {
        let method = HTTPMethod(rawValue: response.urlRequest.httpMethod ?? "GET")
        return (error as? FetchError)?.naming(method: method, url: response.urlRequest.url) ?? error
    }
}

extension ResponseStream {
    /// Held by an iterator, so it ends the transfer when a loop is left before the end.
    final class Reading: Sendable {
        let stream: ResponseStream
        init(_ stream: ResponseStream) { self.stream = stream }
        deinit {
            if !stream.sink.hasEnded { stream.sink.cancel() }
        }
    }

    /// The body as raw chunks: an `AsyncSequence` of `Data`.
    public struct Chunks: AsyncSequence, Sendable {
        /// A chunk of the body.
        public typealias Element = Data
        let stream: ResponseStream

        /// Starts reading.
        public func makeAsyncIterator() -> Iterator { Iterator(reading: Reading(stream)) }

        /// Reads the chunks in order.
        public struct Iterator: AsyncIteratorProtocol {
            let reading: Reading

            /// The next chunk, or `nil` at the end.
            /// - Throws: the error that ended the stream.
            public mutating func next() async throws -> Data? {
                try await reading.stream.nextChunk()
            }
        }
    }

    /// The body as lines of text: an `AsyncSequence` of `String`.
    public struct Lines: AsyncSequence, Sendable {
        /// A line, without its line end.
        public typealias Element = String
        let stream: ResponseStream

        /// Starts reading.
        public func makeAsyncIterator() -> Iterator {
            let splitter = LineSplitter(endings: .lines, maximumLength: stream.maximumLineLength)
            return Iterator(reader: ParsingReader(reading: Reading(stream), parser: splitter))
        }

        /// Reads the lines in order.
        public struct Iterator: AsyncIteratorProtocol {
            var reader: ParsingReader<LineSplitter>

            /// The next line, or `nil` at the end.
            /// - Throws: the error that ended the stream, or
            ///   ``FetchError/Code-swift.enum/bodyTooLarge`` for a line over the stream's limit.
            public mutating func next() async throws -> String? {
                try await reader.next().map { String(decoding: $0, as: UTF8.self) }
            }
        }
    }

    /// The body as Server-Sent Events: an `AsyncSequence` of ``ServerSentEvent``.
    public struct Events: AsyncSequence, Sendable {
        /// An event.
        public typealias Element = ServerSentEvent
        let stream: ResponseStream

        /// Starts reading.
        public func makeAsyncIterator() -> Iterator {
            let limit = stream.maximumLineLength
            let parser = EventStreamParser(maximumLineLength: limit, maximumEventSize: limit)
            return Iterator(reader: ParsingReader(reading: Reading(stream), parser: parser))
        }

        /// Reads the events in order.
        public struct Iterator: AsyncIteratorProtocol {
            var reader: ParsingReader<EventStreamParser>

            /// The next event, or `nil` at the end; an unfinished last event is discarded.
            /// - Throws: the error that ended the stream, or
            ///   ``FetchError/Code-swift.enum/bodyTooLarge`` for a line or event over the stream's limit.
            public mutating func next() async throws -> ServerSentEvent? { try await reader.next() }
        }
    }
}

protocol StreamParser: Sendable {
    associatedtype Output
    mutating func feed(_ piece: Data) throws -> [Output]
    mutating func end() -> [Output]
}

extension EventStreamParser: StreamParser {
    // The standard drops an event no blank line ended.
    mutating func end() -> [ServerSentEvent] { [] }
}

extension LineSplitter: StreamParser {
    mutating func end() -> [Data] { finish().map { [$0] } ?? [] }
}

/// Reads a stream's chunks through a parser; a parser's error ends the transfer.
struct ParsingReader<Parser: StreamParser> {
    let reading: ResponseStream.Reading
    var parser: Parser
    private(set) var ready = [Parser.Output]().makeIterator()
    private(set) var finished = false

    mutating func next() async throws -> Parser.Output? {
        while true {
            if let value = ready.next() { return value }
            if finished { return nil }
            guard let chunk = try await reading.stream.nextChunk() else {
                finished = true
                ready = parser.end().makeIterator()
                continue
            }
            do {
                ready = try parser.feed(chunk).makeIterator()
            } catch {
                finished = true
                reading.stream.cancel()
                throw reading.stream.named(error)
            }
        }
    }
}
