/// A performer that passes every call to another, its `base`: every layer of a stack
/// (``LayeredPerformer``), and a performer of your own that wraps one.
///
/// Conforming tells Fetch what is below: an error a layer above makes names the absolute URL
/// a ``BaseURL`` below resolves, and ``RequestPerforming/prepare(_:)`` finds that base URL.
/// By default the performer calls back where its base does.
public protocol WrappingPerformer: RequestPerforming {
    /// The performer below this one.
    var base: any RequestPerforming { get }
}

extension WrappingPerformer {
    /// The queue of the performer below (see ``RequestPerforming/completionQueue(for:)``).
    public func completionQueue(for request: any Request) -> DispatchQueue? {
        base.completionQueue(for: request)
    }
}

extension LayeredPerformer: WrappingPerformer {}
