/// A `DispatchWorkItem` that can cross threads.
final class WorkItem: @unchecked Sendable {
    // DispatchWorkItem's `cancel()` and `perform()` are thread-safe; `item` is never replaced.
    let item: DispatchWorkItem

    init(_ work: @escaping @Sendable () -> Void) { item = DispatchWorkItem(block: work) }
}
