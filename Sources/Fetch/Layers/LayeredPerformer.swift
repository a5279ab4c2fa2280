/// A performer made of a ``Layer`` and the performer below it: every call goes through the
/// layer, which reaches the performer below through `next`. Made by
/// ``RequestPerforming/layered(_:)`` and by the layer verbs (`retrying(_:scheduler:)`, ...).
///
/// It does for its layer what ``Layer`` lists: exactly one completion, cancellation, the
/// queue of results the layer makes itself, and each attempt built again.
public struct LayeredPerformer: RequestPerforming {
    /// What every call goes through.
    package let layer: any Layer
    /// The performer below the layer.
    package let base: any RequestPerforming

    /// Puts `layer` above `base`.
    package init(layer: any Layer, base: any RequestPerforming) {
        self.layer = layer
        self.base = base
    }

    /// Performs `request` through the layer.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let run = LayerRun(layer, request: request, base: base, completion: completion)
        run.start()
        return run
    }
}
