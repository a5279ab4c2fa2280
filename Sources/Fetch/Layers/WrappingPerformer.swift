/// A performer that passes every call to another, its `base`. Conforming lets Fetch find a ``BaseURL`` below, for the
/// URL errors name and for ``RequestPerforming/prepare(_:)``. By default it calls back where its base does.
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
