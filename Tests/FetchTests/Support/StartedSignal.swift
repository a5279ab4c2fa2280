import Fetch
import FetchTesting

/// Passes calls to a spy and, once the spy has taken each one, hands the test the call's
/// handle: a test awaiting an async call knows when the call is in flight, with no sleep.
struct StartedSignal: RequestPerforming {
    let spy: SpyPerformer
    let started: AsyncStream<any Cancellable>.Continuation

    /// A performer over `spy` and the stream of handles of the calls it started.
    static func over(_ spy: SpyPerformer) -> (StartedSignal, AsyncStream<any Cancellable>) {
        let (stream, continuation) = AsyncStream.makeStream(of: (any Cancellable).self)
        return (StartedSignal(spy: spy, started: continuation), stream)
    }

    func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let handle = spy.perform(request, completion: completion)
        started.yield(handle)
        return handle
    }
}
