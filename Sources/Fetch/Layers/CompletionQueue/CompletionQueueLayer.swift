/// Gives every call a completion queue unless it names its own. Its place does not matter: over `Session`, every
/// completion of the call runs on the queue, a cache hit's too.
struct CompletionQueueLayer: PassingOnce {
    let queue: DispatchQueue

    func passesOnce(_ request: any Request) -> Bool { true }

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        next.perform(queued(request), completion: completion)
    }

    func queued(_ request: any Request) -> any Request {
        guard request.options.completionQueue == nil else { return request }
        return LayeredRequest(request, options: { [queue] in $0.completionQueue = queue })
    }
}

extension RequestPerforming {
    /// This performer, calling back on `queue` unless a call names its own (``RequestOptions/completionQueue``).
    ///
    /// ```swift
    /// let api = Session().caching().completing(on: .main)   // for a UI that reads results on main
    /// ```
    public func completing(on queue: DispatchQueue) -> LayeredPerformer {
        layered(CompletionQueueLayer(queue: queue))
    }
}
