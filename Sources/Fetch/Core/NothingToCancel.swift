/// The handle of a call that completed before `perform` returned (a cache hit, an
/// only-if-cached miss, work an immediate scheduler ran): nothing to cancel. A value with
/// no state, where a ``CancellationHandle`` allocates itself and a lock.
public struct NothingToCancel: Cancellable {
    /// Makes the handle.
    public init() {}

    /// Does nothing: the work has completed.
    public func cancel() {}
}
