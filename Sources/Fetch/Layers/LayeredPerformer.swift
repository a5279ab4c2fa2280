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

        init(layer: any Layer, base: any RequestPerforming) {
            self.layer = layer
            self.base = base
            queueing = layer as? CompletionQueueLayer
        }
    }

    private let parts: Parts
    /// What every call goes through.
    package var layer: any Layer { parts.layer }
    /// The performer below the layer.
    package var base: any RequestPerforming { parts.base }

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
