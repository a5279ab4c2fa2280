/// One call through a ``LayeredPerformer``: the caller's completion, run once, and what the
/// layer has in flight through `next`, cancelled with the call (see ``Layer``).
final class LayerRun: Cancellable, Sendable {
    typealias Completion = @Sendable (Result<Response, any Error>) -> Void

    private struct State: Sendable {
        /// The caller's completion; `nil` once the call has completed.
        var completion: Completion?
        var wasCancelled = false
        /// How many attempts the layer sent through `next`.
        var attempts = 0
        /// The attempts in flight through `next`, by number, with their handles once known.
        var inFlight: [(attempt: Int, handle: (any Cancellable)?)] = []
        /// The handle the layer returned.
        var layerHandle: (any Cancellable)?
        /// The threads running a completion from below: a result the layer delivers on one of
        /// them arrives where the performer below calls back already.
        var delivering: [UInt] = []
    }

    private let state: Locked<State>
    /// The layer and the performer below it: where the call's own results are delivered, and
    /// the stack whose base URL the errors it makes resolve.
    let performer: LayeredPerformer
    /// The request the caller passed.
    let request: any Request
    /// The layer the call goes through, which errors of its attempts name.
    var layer: any Layer { performer.layer }
    /// The performer below the layer.
    var base: any RequestPerforming { performer.base }

    init(
        _ performer: LayeredPerformer, request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        self.performer = performer
        self.request = request
        state = Locked(State(completion: completion))
    }

    /// Runs `layer` for the call and keeps its handle, unless the call has completed (then a
    /// cancellation that came first stops it).
    func start() {
        let handle = layer.perform(request, next: Next(run: self)) { [self] in finish($0) }
        let cancelNow: Bool = state.withLock { state in
            guard state.completion != nil else { return state.wasCancelled }
            state.layerHandle = handle
            return false
        }
        if cancelNow { handle.cancel() }
    }

    /// Completes the call with `result`, the first time only: at once when the layer passes
    /// on a result from below, else where the layered performer calls back (the queue the
    /// performer below names for the call).
    private func finish(_ result: Result<Response, any Error>) {
        let thread = currentThread()
        let (completion, atOnce) = state.withLock { (state: inout State) -> (Completion?, Bool) in
            defer {
                state.completion = nil
                state.inFlight = []
                state.layerHandle = nil
            }
            return (state.completion, state.delivering.contains(thread))
        }
        guard let completion else { return }
        if atOnce { return completion(result) }
        performer.callBack(completion, with: result, for: request)
    }

    /// Sends `request`, an attempt of the layer's, to the performer below.
    fileprivate func send(
        _ request: any Request, completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let attempt: Int? = state.withLock { state in
            guard state.completion != nil else { return nil }
            state.attempts += 1
            state.inFlight.append((state.attempts, nil))
            return state.attempts
        }
        guard let attempt else {
            completion(.failure(FetchError.cancelled(request, through: performer)))
            return NothingToCancel()
        }
        var sent = request
        if attempt > 1 {
            guard request.options.kind.canBeSentAgain else {
                state.withLock { $0.inFlight.removeAll { $0.attempt == attempt } }
                let (method, url) = request.target(through: performer)
                let reason = "\(layer.name) sent the call again after the stream's reader had its response"
                completion(.failure(FetchError(.layer, reason: reason, method: method, url: url, layer: layer.name)))
                return NothingToCancel()
            }
            // A new attempt is built again: its enhancers run again (a refreshed token, a new nonce).
            sent = request.forNextAttempt
        }
        let handle = base.perform(sent) { [self] result in
            let thread = currentThread()
            state.withLock { state in
                state.inFlight.removeAll { $0.attempt == attempt }
                state.delivering.append(thread)
            }
            completion(result)
            state.withLock { state in
                if let index = state.delivering.firstIndex(of: thread) {
                    state.delivering.remove(at: index)
                }
            }
        }
        let cancelNow: Bool = state.withLock { state in
            guard state.completion != nil else { return state.wasCancelled }
            if let index = state.inFlight.firstIndex(where: { $0.attempt == attempt }) {
                state.inFlight[index].handle = handle
            }
            return false
        }
        if cancelNow { handle.cancel() }
        return handle
    }

    /// Cancels what is in flight and the layer's own work, and completes the call with
    /// ``FetchError/Code-swift.enum/cancelled``, unless it has completed.
    func cancel() {
        let (completion, handles) = state.withLock { (state: inout State) -> (Completion?, [any Cancellable]) in
            guard let completion = state.completion else { return (nil, []) }
            state.wasCancelled = true
            var handles = state.inFlight.compactMap { $0.handle }
            if let layerHandle = state.layerHandle { handles.append(layerHandle) }
            state.completion = nil
            state.inFlight = []
            state.layerHandle = nil
            return (completion, handles)
        }
        for handle in handles { handle.cancel() }
        guard let completion else { return }
        performer.callBack(completion, with: .failure(FetchError.cancelled(request, through: performer)), for: request)
    }
}

/// The performer a layer calls `next`: the performer below, reached through the call's run.
private struct Next: RequestPerforming, StackLayer {
    let run: LayerRun
    var base: any RequestPerforming { run.base }

    func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        run.send(request, completion: completion)
    }
}

/// The calling thread, as a number that no other running thread has.
private func currentThread() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
