/// Where a ``Session`` without a configured completion queue calls the completion of a
/// request that ends while no other task is in flight: a serial queue of its own.
///
/// libdispatch runs the default concurrent queue on a pool of as many threads as cores, where a completion can wait for
/// a thread; a serial queue starts one at once. With many calls in flight the concurrent queue is faster. The lane
/// never queues one completion behind another, so a completion that waits for another request cannot deadlock.
final class LoneCompletionQueue: Sendable {
    private let queue = DispatchQueue(label: "Fetch.Session.completion.solo")
    /// Whether the lane is running, or about to run, a completion.
    private let busy = Locked(false)

    /// Marks the lane's queue, so that a test can tell where a completion ran.
    static let key = DispatchSpecificKey<Bool>()

    init() { queue.setSpecific(key: Self.key, value: true) }

    /// Runs `work` on the lane unless the lane is busy with another; returns whether it took `work`.
    func async(_ work: @escaping @Sendable () -> Void) -> Bool {
        let taken = busy.withLock { busy in
            if busy { return false }
            busy = true
            return true
        }
        guard taken else { return false }
        queue.async { [busy] in
            work()
            busy.withLock { $0 = false }
        }
        return true
    }
}
