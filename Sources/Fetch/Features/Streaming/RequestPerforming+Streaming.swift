extension RequestPerforming {
    /// Sends `request` and returns once the head of a response arrives; cancelling the waiting `Task` cancels the call.
    /// - Parameters:
    ///   - request: what to send.
    ///   - acceptingAnyStatus: deliver any status; by default a status other than 2xx throws
    ///     ``FetchError/Code-swift.enum/httpStatus`` with the head and the body's first bytes.
    ///   - bufferSize: unread bytes held in memory (2 MiB by default).
    ///   - spillLimit: unread bytes kept past that in a temporary file (256 MiB by default; 0 for
    ///     none); past both, the loop reads what was kept, then throws ``FetchError/Code-swift.enum/bodyTooLarge``.
    ///   - maximumLineLength: the longest line, or one event's data, held before its end (1 MiB by default).
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

    /// Sends `request` and hands its body to `onChunk` piece by piece as it arrives, then calls `completion` once.
    ///
    /// Callbacks run one at a time, in order: with ``Session`` on its completion queue, over a spy all before this
    /// returns. `completion` gets the response (its body empty) or the error that ended the stream, after the pieces
    /// before it; a reader too far behind gets ``FetchError/Code-swift.enum/bodyTooLarge`` after the pieces kept.
    /// - Parameters:
    ///   - request: what to send.
    ///   - acceptingAnyStatus: deliver any status; by default a status other than 2xx
    ///     completes with ``FetchError/Code-swift.enum/httpStatus`` and no chunk.
    ///   - bufferSize: untaken bytes held in memory (2 MiB by default).
    ///   - spillLimit: untaken bytes kept past that in a temporary file (256 MiB by default; 0 for none).
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
                    completion(result.mapError { ($0 as? FetchError)?.naming(request, through: self) ?? $0 })
                })
        )
        let call = perform(LayeredRequest(request, options: { $0.kind = .stream(sink) })) { sink.finish($0) }
        sink.cancelling(call)
        // Weakly: a handle kept after the last callback must not keep the sink and its callbacks.
        return CancellationHandle { [weak sink] in sink?.cancel() }
    }
}
