/// Reports calls to a user interface: a loading indicator and error messages.
///
/// Pass one to ``RequestPerforming/handlingErrors(_:presenter:)``; each performer has its
/// own, nothing is global. For every call, ``loadingStarted(for:)`` and
/// ``loadingEnded(for:)`` are called exactly once each, in that order, also when the call is
/// cancelled; neither is called for a call whose ``RequestOptions/showsLoading`` is off. Every requirement has an empty default, so implement only what you show.
/// Calls come on whatever thread the call completes on: hop to the main actor yourself.
public protocol RequestPresenting: Sendable {
    /// A call started.
    func loadingStarted(for request: any Request)
    /// A call ended, whatever its outcome; called before ``show(_:for:)``.
    func loadingEnded(for request: any Request)
    /// A call ended in `error` (after the handlers, including the error of a handler that
    /// threw), other than a cancellation, and the request did not turn this off with
    /// ``RequestOptions/presentsErrors``. A response of 400 or more that the handlers let
    /// through reaches the caller as a response and comes here as its
    /// ``FetchError/Code-swift.enum/httpStatus`` error.
    func show(_ error: any Error, for request: any Request)
    /// The handler `handler` threw `error` while handling the call's error; comes before
    /// ``loadingEnded(for:)``.
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
