/// One call through a step that may wait before it sends (an attempt of `RetryLoop` and its
/// wait): the completion, run exactly once, and the step in flight (a request or a wait),
/// cancelled together with the call.
///
/// Cancelling completes the call with ``FetchError/Code-swift.enum/cancelled`` and cancels
/// the step in flight; whatever that step reports afterwards is ignored. The cancellation is
/// delivered where the layer's performer below calls back (``RequestPerforming/completionQueue(for:)``;
/// at once when it names none).
final class LayerCall: Cancellable, @unchecked Sendable {
    // `lock` guards `completion` (nil once the call has completed), `current` (the handle
    // of the step in flight), `step` (which step `current` belongs to) and `wasCancelled`.
    private let lock = Locked()
    private var completion: (@Sendable (Result<Response, any Error>) -> Void)?
    private var current: (any Cancellable)?
    private var step = 0
    private var wasCancelled = false
    /// The request the caller passed.
    let request: any Request
    /// The layer the call goes through, or the performer below it (the same stack, and an
    /// existential already, where a layer would be boxed again for every call), whose stack
    /// resolves the URL a cancellation names and the queue it is delivered on.
    private let performer: (any RequestPerforming)?

    /// Makes the call of `request` through `performer`, the layer that keeps it.
    init(
        request: any Request, through performer: (any RequestPerforming)? = nil,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        self.request = request
        self.performer = performer
        self.completion = completion
    }

    /// Starts the next step of the call and keeps its handle, so that cancelling the call
    /// cancels it. Does nothing once the call has completed.
    ///
    /// `start` runs outside the lock: a performer or scheduler may complete synchronously
    /// and start the step after this one before `start` returns; the older handle is then
    /// dropped, not stored over the newer one.
    func run(_ start: () -> any Cancellable) {
        let thisStep: Int? = lock.withLock {
            guard completion != nil else { return nil }
            step += 1
            current = nil
            return step
        }
        guard let thisStep else { return }
        let handle = start()
        let cancelNow: Bool = lock.withLock {
            if completion == nil { return wasCancelled }
            if step == thisStep { current = handle }
            return false
        }
        if cancelNow { handle.cancel() }
    }

    /// Completes the call with `result`, the first time only.
    func finish(_ result: Result<Response, any Error>) {
        // Taken out through a variable, not returned: a closure returned through the generic
        // `withLock` is wrapped to and from its generic form.
        var toCall: (@Sendable (Result<Response, any Error>) -> Void)?
        lock.withLock {
            toCall = completion
            completion = nil
            current = nil
        }
        toCall?(result)
    }

    /// Cancels the step in flight and completes the call with a cancellation error, unless
    /// it has already completed.
    func cancel() {
        let (toCall, inFlight) = lock.withLock {
            () -> ((@Sendable (Result<Response, any Error>) -> Void)?, (any Cancellable)?) in
            guard let completion else { return (nil, nil) }
            wasCancelled = true
            defer {
                self.completion = nil
                current = nil
            }
            return (completion, current)
        }
        inFlight?.cancel()
        guard let toCall else { return }
        let (method, url) = request.target(through: performer)
        let cancelled = FetchError(.cancelled, reason: "cancelled", method: method, url: url)
        guard let queue = performer?.completionQueue(for: request) else { return toCall(.failure(cancelled)) }
        queue.async { toCall(.failure(cancelled)) }
    }
}
