/// What `Session` tracks for one streamed call besides its ``TaskState``: the call's
/// ``StreamSink``, and what the current response's body has done so far.
final class StreamState: TaskCarrier, Sendable {
    let sink: StreamSink
    let events: DispatchQueue
    /// What the current response's body does; `nil` before a head.
    private let body = Locked<Body?>(nil)

    /// What a response's body does.
    enum Body: Sendable {
        /// Handed to the sink: `bytes` so far, of `expected` when its length is known.
        case delivered(bytes: Int64, expected: Int64?)
        /// Not delivered (a status the caller does not accept): its start, kept for the error.
        case kept(Data)
    }

    init(sink: StreamSink, queue: DispatchQueue) {
        self.sink = sink
        events = DispatchQueue(label: "Fetch.Session.stream", target: queue)
        sink.deliver(on: queue)
    }

    var takesBody: Bool { true }
    var uploadsBody: Bool { false }
    var bodyBytes: Int64 {
        guard case .delivered(let bytes, _) = body.withLock({ $0 }) else { return 0 }
        return bytes
    }

    /// Takes the head of a response: opens the sink with it.
    func open(_ reply: URLResponse, request: any Request, sent: URLRequest) -> BodyOpening {
        guard let http = reply as? HTTPURLResponse else { return .accepted }
        let head = Response(
            request: request, urlRequest: sent, status: http.statusCode, headers: HTTPHeaders(http),
            url: http.url ?? sent.url
        )
        // A compressed body decodes to more (or fewer) bytes than its announced length.
        let length =
            reply.expectedContentLength >= 0 && head.headers.first("Content-Encoding") == nil
            ? reply.expectedContentLength : nil
        let opened: Body = sink.open(head) ? .delivered(bytes: 0, expected: length) : .kept(Data())
        body.withLock { $0 = opened }
        return .accepted
    }

    /// Takes body bytes: into the sink, or (for a status the caller does not accept) the
    /// first ``Response/errorBodyLimit`` bytes into memory.
    func write(_ data: Data) -> FetchError? {
        let delivers: Bool = body.withLock { body in
            switch body {
            case .delivered(let bytes, let expected):
                body = .delivered(bytes: bytes + Int64(data.count), expected: expected)
                return true
            case .kept(var kept):
                body = nil
                kept.append(data.prefix(max(0, Response.errorBodyLimit - kept.count)))
                body = .kept(kept)
                return false
            case nil:
                return false
            }
        }
        if delivers { sink.receive(data) }
        return nil
    }

    func sent(total: Int64, expected: Int64) {}
    func restart(_ request: inout URLRequest, for call: any Request) throws {}
    /// The sink stops itself when its reader cancels.
    func stop() {}

    /// Completes the call with the settled result: a response not delivered gets the start
    /// of its body; a delivered body shorter than its `Content-Length` is an error; an
    /// error after bytes were delivered says how many.
    func finish(
        _ result: Result<Response, any Error>, _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        completion(settle(result, body.withLock { $0 } ?? .kept(Data())))
    }

    /// The call's result once its task has ended with `result` and the body did `body`.
    private func settle(_ result: Result<Response, any Error>, _ body: Body) -> Result<Response, any Error> {
        switch (result, body) {
        case (.success(var response), .kept(let kept)):
            response.body = kept
            return .success(response)
        case (.success(let response), .delivered(let delivered, let expected?)) where delivered < expected:
            let bodiless = response.urlRequest.httpMethod == "HEAD" || response.status == 204 || response.status == 304
            if bodiless { return result }
            return .failure(
                FetchError(
                    .connectionLost,
                    reason: "the body ended after \(delivered) of the \(expected) bytes its Content-Length announced",
                    method: HTTPMethod(rawValue: response.urlRequest.httpMethod ?? "GET"), url: response.urlRequest.url,
                    response: response
                ))
        case (.failure(var error as FetchError), .delivered(let delivered, _)) where delivered > 0:
            error.reason += " after \(delivered) bytes of the stream were delivered"
            return .failure(error)
        default:
            return result
        }
    }
}
