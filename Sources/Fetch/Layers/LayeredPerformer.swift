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
