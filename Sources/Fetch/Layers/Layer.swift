/// One step of a stack of performers: given a call and the performer below it (`next`), it
/// performs the call through `next` (zero, one or several times) and calls back once.
///
/// A layer holds only its own decision; ``LayeredPerformer``, the performer that holds a layer
/// and the performer below it, does for every layer what each would otherwise repeat:
/// - **Exactly once**: the first result the layer delivers reaches the caller; later ones
///   are dropped.
/// - **Cancellation**: cancelling the call cancels what is in flight through `next` and the
///   handle the layer returned, and completes the call at once with
///   ``FetchError/Code-swift.enum/cancelled``.
/// - **Where results arrive**: a result the layer makes itself (before calling `next`, from a
///   `Task`, after a wait) is delivered where the performer below calls back
///   (``LayeredPerformer/completionQueue(for:)``); one it passes on from `next`'s completion
///   is delivered there and then.
/// - **Attempts**: each call to `next` after the first is a new attempt, built again, so the
///   enhancers below run again (a refreshed token, a new nonce). A stream whose reader has
///   its response cannot be sent again (``CallKind/canBeSentAgain``): `next` refuses it with a
///   ``FetchError/Code-swift.enum/layer`` error naming the layer.
///
/// A layer of your own, which sends a call once more when it meets a 503:
///
/// ```swift
/// struct ResendOn503: Layer {
///     func perform(
///         _ request: any Request, next: any RequestPerforming,
///         completion: @escaping @Sendable (Result<Response, any Error>) -> Void
///     ) -> any Cancellable {
///         next.perform(request) { result in
///             guard case .success(let response) = result, response.status == 503 else {
///                 return completion(result)
///             }
///             next.perform(request, completion: completion)
///         }
///     }
/// }
///
/// let api = Session().layered(ResendOn503())
/// ```
public protocol Layer: Sendable {
    /// The name errors use for this layer; its type name by default.
    var name: String { get }

    /// Performs `request` through `next`, zero, one or several times, and calls `completion`
    /// once with the result the caller gets.
    /// - Parameters:
    ///   - request: the call, as the layer above passed it.
    ///   - next: the performer below; each call to it after the first is a new attempt.
    ///   - completion: the caller's completion; the first call wins.
    /// - Returns: a handle that stops the layer's own work (a wait, a `Task`); what is in
    ///   flight through `next` is cancelled with the call whatever it returns.
    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable
}

extension Layer {
    /// The layer's type name.
    public var name: String { String(describing: Self.self) }
}

extension RequestPerforming {
    /// This performer with `layer` above it.
    ///
    /// ```swift
    /// let api = Session().layered(ResendOn503())
    /// ```
    /// - Parameter layer: what every call goes through first.
    /// - Returns: the layered performer.
    public func layered(_ layer: some Layer) -> LayeredPerformer {
        LayeredPerformer(layer: layer, base: self)
    }
}

extension CallKind {
    /// Whether a call of this kind may be sent again once an attempt of it was sent (a retry,
    /// a resend after a refresh): every kind may, except a stream whose reader has its
    /// response (``StreamSink/hasStarted``): nothing can replace what it read.
    public var canBeSentAgain: Bool {
        switch self {
        case .plain, .upload, .download: true
        case .stream(let sink): !sink.hasStarted
        }
    }
}

/// A performer made of a ``Layer`` and the performer below it: every call goes through the
/// layer, which reaches the performer below through `next`. Made by
/// ``RequestPerforming/layered(_:)`` and by the layer verbs (`retrying(_:scheduler:)`, ...).
///
/// It does for its layer what ``Layer`` lists: exactly one completion, cancellation, the
/// queue of results the layer makes itself, and each attempt built again.
public struct LayeredPerformer: RequestPerforming {
    /// The layer and the performer below it, in one object, so that each call keeps one
    /// reference to them rather than a copy of each.
    private final class Parts: Sendable {
        let layer: any Layer
        let base: any RequestPerforming
        /// The layer, when it is a completion-queue layer: cast once here, not on every call
        /// that asks for the queue.
        let queueing: CompletionQueueLayer?
        /// The layer, when it can leave a call alone (see `StandingAside`).
        let standingAside: (any StandingAside)?
        /// The layer, when it can take a call without the runner (see `PassingOnce`).
        let passingOnce: (any PassingOnce)?
        /// Whether the layer reads the requests it sends (see ``PreparingLayer``).
        let prepares: Bool

        init(layer: any Layer, base: any RequestPerforming) {
            self.layer = layer
            self.base = base
            queueing = layer as? CompletionQueueLayer
            standingAside = layer as? any StandingAside
            passingOnce = layer as? any PassingOnce
            prepares = layer is any PreparingLayer
        }
    }

    private let parts: Parts
    /// What every call goes through.
    package var layer: any Layer { parts.layer }
    /// The performer below the layer.
    public var base: any RequestPerforming { parts.base }

    /// Puts `layer` above `base`.
    package init(layer: any Layer, base: any RequestPerforming) {
        parts = Parts(layer: layer, base: base)
    }

    /// Performs `request` through the layer.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        if let layer = parts.standingAside, layer.standsAside(for: request) {
            return base.perform(request, completion: completion)
        }
        if let layer = parts.passingOnce, layer.passesOnce(request) {
            return layer.perform(request, next: base, completion: completion)
        }
        // The request's own enhancers run first, so that a layer that reads it sees what they add.
        if parts.prepares, let call = performingOwnEnhancers(of: request, request.options, completion: completion) {
            return call
        }
        let run = LayerRun(self, request: request, completion: completion)
        run.start()
        return run
    }

    /// The queue the performer below names for `request`, as the layer passes it down: a
    /// completion-queue layer (``RequestPerforming/completing(on:)``) gives it its queue.
    public func completionQueue(for request: any Request) -> DispatchQueue? {
        guard let queueing = parts.queueing else { return base.completionQueue(for: request) }
        return base.completionQueue(for: queueing.queued(request))
    }

    /// The enhancers of an enhancing layer (`enhanced(by:)`),
    /// in the order they run; none for any other layer.
    package var enhancers: [any Enhancer] { (layer as? EnhancingLayer)?.enhancers ?? [] }
}

/// A built-in layer that can tell, before a call starts, that it does nothing for it (logging
/// with nothing to log): its ``LayeredPerformer`` then hands the call to the performer below
/// as it is, which keeps every rule of ``Layer`` for a layer that is not there.
protocol StandingAside: Layer {
    /// Whether the layer leaves `request` alone: it would pass it to `next` once, unchanged,
    /// and pass on the result.
    func standsAside(for request: any Request) -> Bool
}

/// A built-in layer that can tell, before a call starts, that it sends the call through `next`
/// once, before `perform` returns, returns that call's handle and calls back only from that
/// call's completion (an enhancing layer whose enhancers do not wait): the performer below then
/// keeps every rule of ``Layer`` for it, and its ``LayeredPerformer`` runs it without a runner.
protocol PassingOnce: Layer {
    /// Whether the layer takes `request` that way.
    func passesOnce(_ request: any Request) -> Bool
}

/// A layer that reads the requests it sends (``RequestPerforming/prepare(_:)``), as a cache or
/// coalescing does: the request's own enhancers (``RequestOptions/enhancers``) run before it,
/// so that it reads the header fields they add.
public protocol PreparingLayer: Layer {}
