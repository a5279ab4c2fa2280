/// Streamed calls are calls like any other: each puts a ``StreamSink`` in the request's
/// ``RequestOptions/kind`` (``CallKind/stream(_:)``) and goes through `perform`, so
/// enhancers, hooks, logging, activity reporting, retry and refresh all apply (retry and
/// refresh only until the stream has started: see ``StreamSink/hasStarted``); caching and
/// coalescing pass a stream through. Enhancers check the head before the reader gets it.
///
/// ```swift
/// let stream = try await api.stream(Completions(prompt: "Hello"))
/// for try await event in stream.events { print(event.data) }
/// ```
extension RequestPerforming {
    /// Sends `request` and returns as soon as the head of a response has arrived; read its
    /// body as it arrives from the stream.
    ///
    /// Cancelling the calling `Task` while it waits cancels the call.
    /// - Parameters:
    ///   - request: what to send.
    ///   - acceptingAnyStatus: deliver a response whatever its status; by default a status
    ///     other than 2xx throws ``FetchError/Code-swift.enum/httpStatus``, whose `response`
    ///     holds the status, the headers and the first bytes of the body.
    ///   - bufferSize: how many bytes the loop has not read the stream holds in memory before
    ///     it keeps the rest in a temporary file (``StreamSink/defaultBufferSize``, 2 MiB, by
    ///     default).
    ///   - spillLimit: how many more bytes that file keeps (``StreamSink/defaultSpillLimit``,
    ///     256 MiB, by default; 0 for no file); a loop that falls further behind reads what
    ///     was kept, then throws ``FetchError/Code-swift.enum/bodyTooLarge``.
    ///   - maximumLineLength: the longest line (or, for ``ResponseStream/events``, the
    ///     most data of one event) held before its end; 1 MiB by default.
    /// - Returns: the stream, with its ``ResponseStream/response``.
    /// - Throws: a ``FetchError`` (or a layer's error) when no response head could be had.
    public func stream(
        _ request: any Request, acceptingAnyStatus: Bool = false, bufferSize: Int = StreamSink.defaultBufferSize,
        spillLimit: Int = StreamSink.defaultSpillLimit, maximumLineLength: Int = EventStreamParser.defaultLimit
    ) async throws -> ResponseStream {
        let sink = StreamSink(
            bufferSize: bufferSize, spillLimit: spillLimit, acceptsAnyStatus: acceptingAnyStatus, reader: .pull)
        if Task.isCancelled { throw FetchError.cancelled(request, through: self) }
        let dropped = DroppedHandle()
        let outgoing = LayeredRequest(
            request,
            options: {
                $0.kind = .stream(sink)
                $0.droppedHandle = dropped
            })
        let call = perform(outgoing) { sink.finish($0) }
        sink.cancelling(call)
        do {
            let head = try await sink.response()
            return ResponseStream(response: head, sink: sink, maximumLineLength: maximumLineLength, dropped: dropped)
        } catch {
            sink.cancel()
            throw (error as? FetchError)?.naming(request, through: self) ?? error
        }
    }

    /// Sends `request` and hands its body to `onChunk` piece by piece as it arrives, then
    /// calls `completion` once.
    ///
    /// Callbacks run one at a time, in order: `onResponse` with the head, `onChunk` with
    /// each piece, then `completion` with the response (its body empty) or the error that
    /// ended the stream, after the pieces that arrived before it. Over a spy they all run
    /// before this returns; with ``Session`` they run on its completion queue. The body is
    /// read on whatever `onChunk` does: what it has not taken is kept in memory up to
    /// `bufferSize` bytes, then in a temporary file up to `spillLimit` bytes; past that the
    /// call is stopped, and `completion` gets ``FetchError/Code-swift.enum/bodyTooLarge``
    /// after the pieces kept.
    /// - Parameters:
    ///   - request: what to send.
    ///   - acceptingAnyStatus: deliver a response whatever its status; by default a status
    ///     other than 2xx completes with ``FetchError/Code-swift.enum/httpStatus`` and no chunk.
    ///   - bufferSize: how many bytes waiting for `onChunk` are held in memory (2 MiB by default).
    ///   - spillLimit: how many more are kept in a temporary file (256 MiB by default; 0 for no file).
    ///   - onResponse: called with the head before the first chunk.
    ///   - onChunk: called with each piece of the body.
    ///   - completion: called once, last.
    /// - Returns: a handle that cancels the call; no chunk follows the cancel.
    @discardableResult
    public func stream(
        _ request: any Request, acceptingAnyStatus: Bool = false, bufferSize: Int = StreamSink.defaultBufferSize,
        spillLimit: Int = StreamSink.defaultSpillLimit, onResponse: (@Sendable (Response) -> Void)? = nil,
        onChunk: @escaping @Sendable (Data) -> Void,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let sink = StreamSink(
            bufferSize: bufferSize, spillLimit: spillLimit, acceptsAnyStatus: acceptingAnyStatus,
            reader: .push(
                head: onResponse, chunk: onChunk,
                completion: { result in
                    completion(
                        result.mapError { error in
                            (error as? FetchError)?.naming(request, through: self) ?? error
                        })
                })
        )
        let call = perform(LayeredRequest(request, options: { $0.kind = .stream(sink) })) { sink.finish($0) }
        sink.cancelling(call)
        // Weakly: the call holds the sink until its last callback has run, and a handle kept
        // after that must not keep the sink, and with it the callbacks, in memory.
        return CancellationHandle { [weak sink] in sink?.cancel() }
    }
}
