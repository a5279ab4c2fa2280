extension Session {
    /// The queue `request`'s completion runs on: its own ``RequestOptions/completionQueue``
    /// when set, else ``Configuration-swift.struct/completionQueue``, else the session's own
    /// (see that setting). Layers above the session that answer a call themselves (a cache
    /// hit, a cancel) call back there too.
    public func completionQueue(for request: any Request) -> DispatchQueue? {
        queue(for: request.options)
    }

    /// The queue a call with `options` completes on (see ``completionQueue(for:)``).
    func queue(for options: RequestOptions) -> DispatchQueue {
        options.completionQueue ?? completionQueue
    }
}
