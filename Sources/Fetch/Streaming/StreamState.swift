/// What `Session` tracks for one streamed call besides its ``TaskState``: the call's
/// ``StreamSink``, and what the current response's body has done so far.
final class StreamState: TaskCarrier, Sendable {
    let sink: StreamSink
    let events: DispatchQueue
    /// The body bytes of the current response handed to the sink so far, and the length it
    /// announced; `nil` before a head, or for a head the sink did not take.
    private let delivered = Locked<(bytes: Int64, expected: Int64?)?>(nil)

    init(sink: StreamSink, queue: DispatchQueue) {
        self.sink = sink
        events = DispatchQueue(label: "Fetch.Session.stream", target: queue)
        sink.deliver(on: queue)
    }

    var takesBody: Bool { true }
    var uploadsBody: Bool { false }
    var bodyBytes: Int64 { delivered.withLock { $0?.bytes ?? 0 } }

    /// Takes the head of a response: opens the sink with it, or declines the body of a status
    /// the caller does not accept.
    func open(_ head: Response, expectedLength: Int64) -> BodyOpening {
        // A compressed body decodes to more (or fewer) bytes than its announced length.
        let length = expectedLength >= 0 && head.headers.first("Content-Encoding") == nil ? expectedLength : nil
        let opened = sink.open(head)
        delivered.withLock { $0 = opened ? (0, length) : nil }
        return opened ? .accepted : .declined
    }

    /// Hands body bytes to the sink.
    func write(_ data: Data) -> FetchError? {
        let delivers: Bool = delivered.withLock { delivered in
            delivered?.bytes += Int64(data.count)
            return delivered != nil
        }
        if delivers { sink.receive(data) }
        return nil
    }

    func sent(total: Int64, expected: Int64) {}
    func restart(_ request: inout URLRequest, for call: any Request) throws {}
    /// The sink stops itself when its reader cancels.
    func stop() {}

    /// Completes the call with the settled result: a delivered body shorter than its
    /// `Content-Length` is an error; an error after bytes were delivered says how many.
    func finish(
        _ result: Result<Response, any Error>, _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        completion(settle(result, delivered.withLock { $0 }))
    }

    /// The call's result once its task has ended with `result`, `body` bytes delivered.
    private func settle(
        _ result: Result<Response, any Error>, _ body: (bytes: Int64, expected: Int64?)?
    ) -> Result<Response, any Error> {
        switch (result, body) {
        case (.success(let response), (let delivered, let expected?)?) where delivered < expected:
            let bodiless = response.urlRequest.httpMethod == "HEAD" || response.status == 204 || response.status == 304
            if bodiless { return result }
            return .failure(
                FetchError(
                    .connectionLost,
                    reason: "the body ended after \(delivered) of the \(expected) bytes its Content-Length announced",
                    method: HTTPMethod(rawValue: response.urlRequest.httpMethod ?? "GET"), url: response.urlRequest.url,
                    response: response
                ))
        case (.failure(var error as FetchError), (let delivered, _)?) where delivered > 0:
            error.reason += " after \(delivered) bytes of the stream were delivered"
            return .failure(error)
        default:
            return result
        }
    }
}
