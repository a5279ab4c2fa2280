import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `Session` tracks for one streamed call besides its ``TaskState``: where the body
/// goes (the call's ``StreamSink``), how much of it was delivered, and the start of an
/// error body that is not delivered.
///
/// Its methods run on URLSession's delegate queue, one at a time, except ``settle(_:)``,
/// which runs on ``events`` once the task has ended.
final class StreamState: TaskCarrier, @unchecked Sendable {
    // `lock` guards every `var`; the `let`s are immutable and Sendable.
    private let lock = Locked()
    let sink: StreamSink
    /// Where the call completes, after the sink's callbacks (which run on its own queue
    /// that targets the same completion queue).
    let events: DispatchQueue
    private var delivering = false
    private var delivered: Int64 = 0
    private var expected: Int64?
    private var errorBody = Data()

    init(sink: StreamSink, queue: DispatchQueue) {
        self.sink = sink
        events = DispatchQueue(label: "Fetch.Session.stream", target: queue)
        sink.deliver(on: queue)
    }

    /// The body goes to the sink.
    var takesBody: Bool { true }
    /// A stream's request body reports no progress.
    var uploadsBody: Bool { false }

    /// How many body bytes went to the sink.
    var bodyBytes: Int64 { lock.withLock { delivering ? delivered : 0 } }

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
        let delivers = sink.open(head)
        lock.withLock {
            (delivering, delivered, expected, errorBody) = (delivers, 0, length, Data())
        }
        return .accepted
    }

    /// Takes body bytes: into the sink, or (for a status the caller does not accept) the
    /// first ``Response/errorBodyLimit`` bytes into memory.
    func write(_ data: Data) -> FetchError? {
        let delivers: Bool = lock.withLock {
            if delivering {
                delivered += Int64(data.count)
            } else if errorBody.count < Response.errorBodyLimit {
                errorBody.append(data.prefix(Response.errorBodyLimit - errorBody.count))
            }
            return delivering
        }
        if delivers { sink.receive(data) }
        return nil
    }

    /// A stream reports no progress of its request body.
    func sent(total: Int64, expected: Int64) {}

    /// Never asked: a stream has no partial file.
    func restart(_ request: inout URLRequest, for call: any Request) throws {}

    /// The sink stops itself when its reader cancels.
    func stop() {}

    /// Completes the call with the settled result.
    func finish(
        _ result: Result<Response, any Error>, _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        completion(settle(result))
    }

    /// The call's result once its task has ended: a response not delivered gets the start
    /// of its body; a delivered body shorter than its `Content-Length` is an error; an
    /// error after bytes were delivered says how many.
    func settle(_ result: Result<Response, any Error>) -> Result<Response, any Error> {
        let (delivering, delivered, expected, errorBody) = lock.withLock {
            (self.delivering, self.delivered, self.expected, self.errorBody)
        }
        switch result {
        case .success(var response):
            if !delivering {
                response.body = errorBody
                return .success(response)
            }
            let bodiless = response.urlRequest.httpMethod == "HEAD" || response.status == 204 || response.status == 304
            if let expected, delivered < expected, !bodiless {
                return .failure(
                    FetchError(
                        .connectionLost,
                        reason:
                            "the body ended after \(delivered) of the \(expected) bytes its Content-Length announced",
                        method: HTTPMethod(rawValue: response.urlRequest.httpMethod ?? "GET"),
                        url: response.urlRequest.url,
                        response: response
                    ))
            }
            return .success(response)
        case .failure(var error as FetchError) where delivering && delivered > 0:
            error.reason += " after \(delivered) bytes of the stream were delivered"
            return .failure(error)
        case .failure:
            return result
        }
    }
}
