import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Performs a streamed call (``RequestOptions/stream``): the body goes to the call's
    /// ``StreamSink`` as it arrives rather than into memory, so no body limit applies.
    ///
    /// While the sink holds more unread bytes than its buffer size, the session's delegate
    /// queue makes URLSession wait before each callback (see ``DeliveryQueue/hold(_:)``),
    /// which stops libcurl reading. A stream has no overall deadline unless the request
    /// sets ``RequestOptions/deadline``; the idle timeout applies.
    func performStream(
        _ request: any Request, options: RequestOptions, sink: StreamSink,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        guard let urlRequest = prepare(request, options: options, failing: completion) else {
            return CancellationHandle()
        }
        let stream = StreamState(
            sink: sink, queue: completionQueue, pressure: urlSession.delegateQueue as? DeliveryQueue)
        let state = taskState(
            for: request, urlRequest, options: options, deadline: options.deadline, stream: stream
        ) { result in
            completion(stream.settle(result))
        }
        admit(state)
        return state.cancellingHandle
    }
}
