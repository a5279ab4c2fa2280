/// Reports calls to a user interface: a loading indicator and error messages.
///
/// Pass one to ``RequestPerforming/handlingErrors(_:presenter:)``. ``loadingStarted(for:)`` and ``loadingEnded(for:)``
/// come exactly once each per call, in that order, cancelled or not, unless ``RequestOptions/showsLoading`` is off.
/// Calls come on the thread the call completes on: hop to the main actor yourself.
public protocol RequestPresenting: Sendable {
    /// A call started.
    func loadingStarted(for request: any Request)
    /// A call ended, whatever its outcome; called before ``show(_:for:)``.
    func loadingEnded(for request: any Request)
    /// A call ended in `error` after the handlers (a handler's thrown error included), other than a cancellation,
    /// unless ``RequestOptions/presentsErrors`` is off. A 4xx or 5xx response the handlers let through comes here as
    /// its ``FetchError/Code-swift.enum/httpStatus`` error.
    func show(_ error: any Error, for request: any Request)
    /// The handler `handler` threw `error` while handling the call's error; comes before ``loadingEnded(for:)``.
    func handlerFailed(_ error: any Error, handler: String, for request: any Request)
}

extension RequestPresenting {
    /// Does nothing.
    public func loadingStarted(for request: any Request) {}
    /// Does nothing.
    public func loadingEnded(for request: any Request) {}
    /// Does nothing.
    public func show(_ error: any Error, for request: any Request) {}
    /// Does nothing.
    public func handlerFailed(_ error: any Error, handler: String, for request: any Request) {}
}
