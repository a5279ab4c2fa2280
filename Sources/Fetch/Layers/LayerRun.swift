/// One call through a ``LayeredPerformer``: keeps the rules of ``Layer`` for it, and is the layer's `next`.
final class LayerRun: WrappingPerformer, Cancellable, Sendable {
    typealias Completion = @Sendable (Result<Response, any Error>) -> Void

    /// What changes during the call; the first handle and delivering thread sit in place, so most calls need no array.
    private struct State: Sendable {
        /// The caller's completion; `nil` once the call has completed.
        var completion: Completion?
        var wasCancelled = false
        var attempts = 0
        /// The layer's completion of the attempt in flight, kept here so the closure handed
        /// below holds only the run; an attempt sent while it is in use carries its own.
        var attemptCompletion: Completion?
        /// The handles of the attempts sent through `next`; an ended attempt ignores its cancel.
        var handle: (any Cancellable)?
        var moreHandles: [any Cancellable] = []
        var layerHandle: (any Cancellable)?
        /// The threads running a completion from below (0 for none): a result the layer
        /// delivers on one of them is already where the performer below calls back.
        var delivering: UInt = 0
        var moreDelivering: [UInt] = []

        /// Ends the call: returns the caller's completion, once, and lets the handles go.
        mutating func complete() -> Completion? {
            defer {
                completion = nil
                handle = nil
                moreHandles = []
                layerHandle = nil
            }
            return completion
        }

        mutating func keep(_ newHandle: any Cancellable) {
            if handle == nil { handle = newHandle } else { moreHandles.append(newHandle) }
        }

        func isDelivering(on thread: UInt) -> Bool {
            delivering == thread || (!moreDelivering.isEmpty && moreDelivering.contains(thread))
        }

        mutating func startDelivering(on thread: UInt) {
            if delivering == 0 { delivering = thread } else { moreDelivering.append(thread) }
        }

        mutating func endDelivering(on thread: UInt) {
            if delivering == thread {
                delivering = 0
            } else if let index = moreDelivering.firstIndex(of: thread) {
                moreDelivering.remove(at: index)
            }
        }
    }

    private let state: Locked<State>
    /// Where the call's own results are delivered, and whose base URL its errors resolve.
    let performer: LayeredPerformer
    let request: any Request
    var base: any RequestPerforming { performer.base }

    init(_ performer: LayeredPerformer, request: any Request, completion: @escaping Completion) {
        self.performer = performer
        self.request = request
        state = Locked(State(completion: completion))
    }

    /// Runs the layer and keeps its handle; cancels it when a cancellation came first.
    func start() {
        let handle = performer.layer.perform(request, next: self) { [self] in finish($0) }
        let cancelNow: Bool = state.withLock { state in
            guard state.completion != nil else { return state.wasCancelled }
            state.layerHandle = handle
            return false
        }
        if cancelNow { handle.cancel() }
    }

    /// Completes the call with `result`, once: at once when passed on from below, else where the base calls back.
    private func finish(_ result: Result<Response, any Error>) {
        let thread = currentThread()
        // Out through a variable: a closure returned through the generic `withLock` is rewrapped.
        var completion: Completion?
        let atOnce = state.withLock { state in
            completion = state.complete()
            return state.isDelivering(on: thread)
        }
        guard let completion else { return }
        if atOnce { return completion(result) }
        performer.callBack(completion, with: result, for: request)
    }

    /// Sends `request`, an attempt of the layer's, to the performer below.
    func perform(_ request: any Request, completion: @escaping Completion) -> any Cancellable {
        var inPlace = false
        let attempt: Int? = state.withLock { state in
            // Once the call has completed, a layer may still send work of its own (a cache's
            // revalidation in the background); it is not the call's to cancel.
            guard !state.wasCancelled else { return nil }
            state.attempts += 1
            if state.attemptCompletion == nil {
                state.attemptCompletion = completion
                inPlace = true
            }
            return state.attempts
        }
        guard let attempt else {
            completion(.failure(FetchError.cancelled(request, through: performer)))
            return NothingToCancel()
        }
        if attempt > 1, !request.options.kind.canBeSentAgain {
            if inPlace { state.withLock { $0.attemptCompletion = nil } }
            let (method, url) = request.target(through: performer)
            let name = performer.layer.name
            let reason = "\(name) sent the call again after the stream's reader had its response"
            completion(.failure(FetchError(.layer, reason: reason, method: method, url: url, layer: name)))
            return NothingToCancel()
        }
        let delivered: Completion
        if inPlace {
            delivered = { [self] in deliver($0) }
        } else {
            delivered = { [self] in deliver($0, to: completion) }
        }
        // A later attempt is built again, so its enhancers run again.
        let handle = performer.base.perform(attempt == 1 ? request : request.forNextAttempt, completion: delivered)
        let cancelNow: Bool = state.withLock { state in
            guard state.completion != nil else { return state.wasCancelled }
            state.keep(handle)
            return false
        }
        if cancelNow { handle.cancel() }
        return handle
    }

    /// Passes an attempt's `result` to `completion` (the state's when `nil`) while this thread delivers from below.
    private func deliver(_ result: Result<Response, any Error>, to completion: Completion? = nil) {
        let thread = currentThread()
        var toCall = completion
        state.withLock { state in
            if toCall == nil {
                toCall = state.attemptCompletion
                state.attemptCompletion = nil
            }
            state.startDelivering(on: thread)
        }
        toCall?(result)
        state.withLock { $0.endDelivering(on: thread) }
    }

    /// Cancels what is in flight and the layer's own work; completes the call as cancelled unless it has completed.
    func cancel() {
        var completion: Completion?
        let handles = state.withLock { state -> [any Cancellable] in
            guard state.completion != nil else { return [] }
            state.wasCancelled = true
            let handles = ([state.handle] + state.moreHandles + [state.layerHandle]).compactMap { $0 }
            completion = state.complete()
            return handles
        }
        for handle in handles { handle.cancel() }
        guard let completion else { return }
        performer.callBack(completion, with: .failure(FetchError.cancelled(request, through: performer)), for: request)
    }
}

/// The calling thread, as a number that no other running thread has (and not 0).
private func currentThread() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
