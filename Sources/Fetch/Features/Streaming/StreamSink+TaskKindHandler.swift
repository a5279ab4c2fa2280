/// What a stream adds to its task in ``Session``: the sink itself takes and counts the body.
extension StreamSink: TaskKindHandler {
    var events: DispatchQueue { queue.withLock { $0 } ?? .global() }
    var takesBody: Bool { true }
    var uploadsBody: Bool { false }
    var bodyBytes: Int64 { Int64(machine.withLock { $0.received }) }

    /// Declines the body of a status the caller does not accept.
    func open(_ head: Response, expectedLength: Int64) -> BodyOpening {
        open(head) ? .accepted : .declined
    }

    func write(_ data: Data) -> FetchError? {
        receive(data)
        return nil
    }

    func sent(total: Int64, expected: Int64) {}
    func restart(_ request: inout URLRequest) throws {}
    /// The sink stops itself when its reader cancels.
    func stop() {}

    /// A delivered body shorter than its `Content-Length` is an error; an error after bytes were delivered counts them.
    func finish(
        _ result: Result<Response, any Error>, _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        let (opened, delivered) = machine.withLock { ($0.head != nil, Int64($0.received)) }
        guard opened else { return completion(result) }
        switch result {
        case .success(let response):
            // A compressed body decodes to more (or fewer) bytes than its announced length.
            guard response.headers.first("Content-Encoding") == nil,
                let expected = response.headers.first("Content-Length").flatMap({ Int64($0) }), delivered < expected,
                !Response.hasNoBody(method: response.urlRequest.httpMethod, status: response.status)
            else { return completion(result) }
            let reason = "the body ended after \(delivered) of the \(expected) bytes its Content-Length announced"
            completion(.failure(FetchError(.connectionLost, about: response, reason: reason)))
        case .failure(var error as FetchError) where delivered > 0:
            error.reason += " after \(delivered) bytes of the stream were delivered"
            completion(.failure(error))
        case .failure:
            completion(result)
        }
    }
}
