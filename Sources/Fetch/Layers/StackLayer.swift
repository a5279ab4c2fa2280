/// A layer of a stack: a performer that passes every call to another, its `base`.
///
/// What an error made by a layer names is resolved through the layers below it
/// (``Request/target(through:)``), and a layer calls back where the performer below does, so
/// every layer of Fetch is one.
protocol StackLayer: RequestPerforming {
    /// The performer below this layer.
    var base: any RequestPerforming { get }
}

extension StackLayer {
    /// The queue of the performer below (see ``RequestPerforming/completionQueue(for:)``).
    public func completionQueue(for request: any Request) -> DispatchQueue? {
        base.completionQueue(for: request)
    }
}

extension CachingPerformer: StackLayer {}
extension CoalescingPerformer: StackLayer {}
extension LayeredPerformer: StackLayer {}
