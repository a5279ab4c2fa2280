/// A performer that gives every call a completion queue (``RequestOptions/completionQueue``)
/// unless the call names its own. Made by ``RequestPerforming/completing(on:)``.
///
/// Where it sits in the stack does not matter: every completion of the call, a cache hit's
/// included, runs on the queue, over `Session`. Over the spy of FetchTesting, which ignores
/// completion queues, the calls still complete before `perform` returns.
public struct CompletionQueuePerformer: RequestPerforming {
    /// The performer the calls go to.
    package let base: any RequestPerforming
    /// The queue given to calls that name none.
    package let queue: DispatchQueue

    /// Performs `request` with the queue set, unless it names its own.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        base.perform(queued(request), completion: completion)
    }

    /// The queue the performer below names for `request` with the queue set.
    public func completionQueue(for request: any Request) -> DispatchQueue? {
        base.completionQueue(for: queued(request))
    }

    /// `request` with ``queue`` as its completion queue, unless it names one.
    private func queued(_ request: any Request) -> any Request {
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
    public func completing(on queue: DispatchQueue) -> CompletionQueuePerformer {
        CompletionQueuePerformer(base: self, queue: queue)
    }
}
