import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Performs a streamed call (``RequestOptions/stream``): the body goes to the call's
    /// ``StreamSink`` as it arrives rather than into memory, so no body limit applies.
    ///
    /// The body is read as fast as it comes, whatever the reader does: the sink keeps what
    /// the reader has not taken (in memory, then in a temporary file) and never makes
    /// URLSession wait, since its work queue is every session's. A stream has no overall
    /// deadline unless the request sets ``RequestOptions/deadline``; the idle timeout applies.
    func performStream(
        _ request: any Request, options: RequestOptions, sink: StreamSink,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        guard let urlRequest = prepare(request, options: options, failing: completion) else {
            return CancellationHandle()
        }
        let stream = StreamState(sink: sink, queue: queue(for: options))
        let state = taskState(
            for: request, urlRequest, options: options, deadline: options.deadline, stream: stream
        ) { result in
            completion(stream.settle(result))
        }
        admit(state)
        return state.cancellingHandle
    }
}
