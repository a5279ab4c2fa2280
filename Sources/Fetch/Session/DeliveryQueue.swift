import Foundation

/// The delegate queue of a ``Session``: a serial `OperationQueue` that makes URLSession
/// wait when callbacks pile up.
///
/// URLSession on Linux hands every received chunk (16 KiB) to the delegate queue with
/// `addOperation` and reads on without waiting, so when the network outruns the delegate
/// (a fast server, a busy CPU) the chunks pile up in memory: 60 to 150 MB more for a
/// 1 GiB download measured on loopback. Here `addOperation`, called on URLSession's own
/// work queue, waits while more than ``highWater`` callbacks are queued, until the queue
/// is down to ``lowWater``; that stops libcurl reading, and TCP slows the sender.
///
/// The wait never happens on the queue itself, and never while a callback waits for
/// URLSession (cancelling or starting a task does): such a callback runs through
/// ``withoutBackpressure(_:)``. Otherwise the two wait for each other: URLSession's work
/// queue (one for every session in the process) stays inside libcurl's read loop, each chunk
/// held up to ``longestWait`` because this queue does not drain, and the cancel waits behind
/// that loop; with data still arriving, this lasted tens of seconds and stalled every
/// session in the process.
final class DeliveryQueue: OperationQueue, @unchecked Sendable {
    // `condition` guards `queued` and `unblocking`; the limits are immutable.
    private let condition = NSCondition()
    private var queued = 0
    /// How many callbacks are waiting for URLSession through ``withoutBackpressure(_:)``.
    private var unblocking = 0
    /// Callbacks queued before `addOperation` starts to wait.
    let highWater: Int
    /// Callbacks queued when a waiting `addOperation` goes on.
    let lowWater: Int
    /// The longest one wait lasts.
    let longestWait: TimeInterval

    init(highWater: Int = 128, lowWater: Int = 32, longestWait: TimeInterval = 0.25) {
        self.highWater = highWater
        self.lowWater = lowWater
        self.longestWait = longestWait
        super.init()
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        condition.lock()
        if queued >= highWater, unblocking == 0, OperationQueue.current !== self {
            let until = Date(timeIntervalSinceNow: longestWait)
            while queued > lowWater, unblocking == 0, condition.wait(until: until) {}
        }
        queued += 1
        condition.unlock()
        super.addOperation { [condition, weak self] in
            block()
            condition.lock()
            if let self {
                self.queued -= 1
                if self.queued <= self.lowWater { condition.broadcast() }
            }
            condition.unlock()
        }
    }

    /// Runs `body`, a callback's call that waits for URLSession's work queue, with
    /// backpressure off until it returns, and wakes an `addOperation` that is waiting.
    func withoutBackpressure<Result>(_ body: () -> Result) -> Result {
        condition.lock()
        unblocking += 1
        condition.broadcast()
        condition.unlock()
        defer {
            condition.lock()
            unblocking -= 1
            condition.unlock()
        }
        return body()
    }

    /// Runs `body` through ``withoutBackpressure(_:)`` when called from a delivery queue,
    /// as it is otherwise.
    static func unblocked<Result>(_ body: () -> Result) -> Result {
        guard let queue = OperationQueue.current as? DeliveryQueue else { return body() }
        return queue.withoutBackpressure(body)
    }
}
