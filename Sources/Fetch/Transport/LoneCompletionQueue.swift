/// Where a ``Session`` without a completion queue calls back for a request that ends while no other is in flight:
/// libdispatch runs the default concurrent queue on as many threads as cores, where a completion can wait for one,
/// while a serial queue starts one at once (with many calls in flight the concurrent queue is faster). The lane never
/// queues one completion behind another, so a completion that waits for another request cannot deadlock.
final class LoneCompletionQueue: Sendable {
    private let queue = DispatchQueue(label: "Fetch.Session.completion.solo")
    private let busy = Locked(false)

    /// Lets a test tell where a completion ran.
    static let key = DispatchSpecificKey<Bool>()

    init() { queue.setSpecific(key: Self.key, value: true) }

    /// Runs `work` unless the lane is busy with another; returns whether it took it.
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
