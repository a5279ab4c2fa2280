extension RequestOptions {
    private enum CompletionQueueKey: RequestOptionKey { static let defaultValue: DispatchQueue? = nil }

    /// The queue this call's completion runs on, in place of the performer's; `nil` (the
    /// default) keeps the performer's.
    ///
    /// Set it on a request, or let a layer set it for every call it passes down
    /// (``RequestPerforming/completing(on:)``); a request's own value wins over a layer's,
    /// and either wins over ``Session/Configuration-swift.struct/completionQueue``. It
    /// applies to everything the call delivers on a queue: its completion, a transfer's
    /// progress, a stream's callbacks, and the answers of layers that respond themselves
    /// (a cache hit, a cancel). The `SpyPerformer` of FetchTesting ignores it and stays
    /// synchronous; a test reads the value from the recorded request.
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

    /// Calls `completion` with `result` where this performer calls `request`'s completions:
    /// on ``completionQueue(for:)``, or at once when it names none. For a layer answering
    /// a call without this performer, its base.
    func callBack(
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void,
        with result: Result<Response, any Error>, for request: any Request
    ) {
        guard let queue = completionQueue(for: request) else { return completion(result) }
        queue.async { completion(result) }
    }
}
