/// The handle of a call that completed before `perform` returned (a cache hit, work an immediate
/// scheduler ran): nothing to cancel, and no allocation, unlike a ``CancellationHandle``.
public struct NothingToCancel: Cancellable {
    /// Makes the handle.
    public init() {}

    /// Does nothing: the work has completed.
    public func cancel() {}
}
