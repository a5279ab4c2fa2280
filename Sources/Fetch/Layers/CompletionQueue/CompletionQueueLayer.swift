/// The layer that gives every call a completion queue (``RequestOptions/completionQueue``)
/// unless the call names its own. Made by ``RequestPerforming/completing(on:)``.
///
/// Where it sits in the stack does not matter: every completion of the call, a cache hit's
/// included, runs on the queue, over `Session`. Over the spy of FetchTesting, which ignores
/// completion queues, the calls still complete before `perform` returns. Its performer names
/// the queue for the calls it completes itself (``LayeredPerformer/completionQueue(for:)``).
struct CompletionQueueLayer: Layer {
    /// The queue given to calls that name none.
    let queue: DispatchQueue

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        next.perform(queued(request), completion: completion)
    }

    /// `request` with ``queue`` as its completion queue, unless it names one.
    func queued(_ request: any Request) -> any Request {
        guard request.options.completionQueue == nil else { return request }
        return LayeredRequest(request, options: { [queue] in $0.completionQueue = queue })
    }
}

extension RequestPerforming {
    /// This performer, calling back on `queue` unless a call names its own
    /// (``RequestOptions/completionQueue``).
    ///
    /// ```swift
    /// let api = Session().caching().completing(on: .main)   // for a UI that reads results on main
    /// ```
    /// - Parameter queue: where completions run.
    /// - Returns: the performer.
    public func completing(on queue: DispatchQueue) -> LayeredPerformer {
        layered(CompletionQueueLayer(queue: queue))
    }
}
