/// One step of a stack of performers: it performs a call through `next` (zero, one or several times), calls back once.
///
/// ``LayeredPerformer`` keeps these rules for every layer:
/// - **Exactly once**: the first result the layer delivers reaches the caller; later ones are dropped.
/// - **Cancellation**: cancelling the call cancels what is in flight through `next` and the handle the layer
///   returned, and completes the call at once with ``FetchError/Code-swift.enum/cancelled``.
/// - **Where results arrive**: a result the layer makes itself (before calling `next`, from a `Task`, after a
///   wait) is delivered where the performer below calls back (``LayeredPerformer/completionQueue(for:)``); one
///   passed on from `next`'s completion is delivered there and then.
/// - **Attempts**: each call to `next` after the first is a new attempt, built again, so the enhancers below run
///   again (a refreshed token, a new nonce). A stream whose reader has its response cannot be sent again
///   (``CallKind/canBeSentAgain``): `next` refuses it with a ``FetchError/Code-swift.enum/layer`` error naming
///   the layer.
public protocol Layer: Sendable {
    /// The name errors use for this layer; its type name by default.
    var name: String { get }

    /// Performs `request` through `next` and calls `completion` with the caller's result.
    /// - Parameters:
    ///   - request: the call, as the layer above passed it.
    ///   - next: the performer below.
    ///   - completion: the caller's completion; the first call wins.
    /// - Returns: a handle that stops the layer's own work (a wait, a `Task`); what is in
    ///   flight through `next` is cancelled with the call anyway.
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
    /// This performer with `layer` above it: every call goes through `layer` first.
    public func layered(_ layer: some Layer) -> LayeredPerformer {
        LayeredPerformer(layer: layer, base: self)
    }
}

extension CallKind {
    /// Whether a call of this kind may be sent again (a retry, a resend after a refresh): not a stream whose reader
    /// has its response (``StreamSink/hasStarted``), since nothing can replace what it read.
    public var canBeSentAgain: Bool {
        switch self {
        case .plain, .upload, .download: true
        case .stream(let sink): !sink.hasStarted
        }
    }
}

/// A ``Layer`` over the performer below it, keeping the rules ``Layer`` lists. Made by
/// ``RequestPerforming/layered(_:)`` and by the layer verbs (`retrying(_:scheduler:)`, ...).
public struct LayeredPerformer: RequestPerforming {
    /// One object, so that each call keeps one reference rather than a copy of each part.
    private final class Parts: Sendable {
        let layer: any Layer
        let base: any RequestPerforming
        /// Cast once here, not on every call that asks for the queue.
        let queueing: CompletionQueueLayer?
        let standingAside: (any StandingAside)?
        let passingOnce: (any PassingOnce)?
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
        if parts.prepares, let call = performingOwnEnhancers(of: request, request.options, completion: completion) {
            return call
        }
        let run = LayerRun(self, request: request, completion: completion)
        run.start()
        return run
    }

    /// The queue the performer below names for `request`, or one a ``RequestPerforming/completing(on:)`` layer sets.
    public func completionQueue(for request: any Request) -> DispatchQueue? {
        guard let queueing = parts.queueing else { return base.completionQueue(for: request) }
        return base.completionQueue(for: queueing.queued(request))
    }

    /// The enhancers of an enhancing layer, in the order they run; none for any other layer.
    package var enhancers: [any Enhancer] { (layer as? EnhancingLayer)?.enhancers ?? [] }
}

/// A built-in layer that may do nothing for a call (logging with nothing to log), which then goes straight below.
protocol StandingAside: Layer {
    func standsAside(for request: any Request) -> Bool
}

/// A built-in layer that sends a call through `next` once before `perform` returns and calls back only from
/// that call's completion (an enhancing layer whose enhancers do not wait), so it needs no runner.
protocol PassingOnce: Layer {
    func passesOnce(_ request: any Request) -> Bool
}

/// A layer that reads the requests it sends (``RequestPerforming/prepare(_:)``), as a cache does: the request's
/// own enhancers (``RequestOptions/enhancers``) run before it, so it sees the fields they add.
public protocol PreparingLayer: Layer {}
