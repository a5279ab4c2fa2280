extension RequestOptions {
    private enum CompletionQueueKey: RequestOptionKey { static let defaultValue: DispatchQueue? = nil }

    /// The queue all this call delivers runs on (completion, progress, stream callbacks, answers of layers); `nil`, the
    /// default, keeps the performer's. It wins over a ``RequestPerforming/completing(on:)`` layer, either over
    /// ``Session/Configuration-swift.struct/completionQueue``; the `SpyPerformer` of FetchTesting ignores it.
    public var completionQueue: DispatchQueue? {
        get { self[CompletionQueueKey.self] }
        set { self[CompletionQueueKey.self] = newValue }
    }
}

extension RequestPerforming {
    /// The request's own ``RequestOptions/completionQueue``: a performer that says nothing
    /// calls back where it finishes, unless the caller asked for a queue.
    public func completionQueue(for request: any Request) -> DispatchQueue? {
        request.options.completionQueue
    }

    /// Calls `completion` on ``completionQueue(for:)``, or at once; a layer answering a call calls it on its base.
    func callBack(
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void,
        with result: Result<Response, any Error>, for request: any Request
    ) {
        guard let queue = completionQueue(for: request) else { return completion(result) }
        queue.async { completion(result) }
    }
}
