/// Runs work later. Layers that wait (retry back-off) take a scheduler instead of
/// sleeping, so tests can use an immediate or manually advanced one from FetchTesting.
public protocol Scheduler: Sendable {
    /// Runs `work` once `delay` has passed; cancelling the handle before then stops it.
    @discardableResult
    func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Cancellable
}

/// A ``Scheduler`` over a Dispatch queue: real time.
public struct DispatchQueueScheduler: Scheduler {
    /// The queue the work runs on.
    public let queue: DispatchQueue

    /// Makes a scheduler that runs work on `queue` (a global queue by default).
    public init(queue: DispatchQueue = .global()) { self.queue = queue }

    /// Runs `work` on the queue after `delay`: at once when it is negative; a delay too long
    /// for Dispatch (about 292 years) is cut to the longest it takes.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let handle = CancellationHandle()
        let nanoseconds = Int(clamping: delay.clampedNanoseconds)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
            if !handle.isCancelled { work() }
        }
        return handle
    }
}

extension Scheduler where Self == DispatchQueueScheduler {
    /// Real time on a global Dispatch queue.
    public static var dispatch: DispatchQueueScheduler { DispatchQueueScheduler() }
}
