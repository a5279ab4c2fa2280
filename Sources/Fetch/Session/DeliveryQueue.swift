import Foundation

/// The delegate queue of a ``Session``: a serial `OperationQueue` that runs each callback
/// at once on URLSession's thread when it can, and makes URLSession wait, briefly, when
/// callbacks pile up.
///
/// URLSession on Linux hands every received chunk (up to 16 KiB) to the delegate queue with
/// `addOperation` and reads on without waiting, so when the network outruns the delegate
/// (a fast server, a busy CPU) the chunks pile up in memory. Here `addOperation`, called on
/// URLSession's work queue, waits while more than ``highWater`` callbacks are queued, until
/// the queue is down to ``lowWater`` or ``longestWait`` has passed; that slows libcurl's
/// reading, and TCP slows the sender. That work queue is shared by every session of the
/// process, so the wait is bounded, and it depends only on this queue's own callbacks, which
/// are short and never wait for anything: not for URLSession (cancelling or making a task
/// happens on the session's ``ControlThread``), and not for a stream's reader (a
/// ``StreamSink`` keeps what its reader has not taken, in memory then in a file).
///
/// Callbacks do not run as `Operation`s, which cost several times a dispatch on Linux. A
/// block handed to `addOperation(_:)` while no callback is queued or running runs at once,
/// on the thread that adds it (URLSession's work queue): no dispatch and no wake-up of
/// another thread. Otherwise it joins a list that one drain on ``serial`` (also the
/// `underlyingQueue`) runs in order, in batches. (An `Operation` added any other way runs on
/// ``serial``; URLSession adds only blocks.)
final class DeliveryQueue: OperationQueue, @unchecked Sendable {
    // `condition` guards `queued`, `pending` and `draining`; the other `let`s are immutable.
    private let condition = NSCondition()
    /// Callbacks added and not yet run.
    private var queued = 0
    /// Callbacks waiting for the drain, in order.
    private var pending: [@Sendable () -> Void] = []
    /// Whether a drain is scheduled or running.
    private var draining = false
    /// Callbacks queued before `addOperation` starts to wait.
    let highWater: Int
    /// Callbacks queued when a waiting `addOperation` goes on.
    let lowWater: Int
    /// The longest one wait lasts.
    let longestWait: TimeInterval
    /// Where every callback runs, one at a time, in the order it came.
    let serial = DispatchQueue(label: "Fetch.Session.delegate")

    /// Tells, on ``serial``, which delivery queue it belongs to.
    private final class Owner: @unchecked Sendable {
        // Set once in `init`, then only read.
        weak var queue: DeliveryQueue?
    }
    private static let ownerKey = DispatchSpecificKey<Owner>()

    init(highWater: Int = 128, lowWater: Int = 32, longestWait: TimeInterval = 0.25) {
        self.highWater = highWater
        self.lowWater = lowWater
        self.longestWait = longestWait
        super.init()
        maxConcurrentOperationCount = 1
        underlyingQueue = serial
        let owner = Owner()
        owner.queue = self
        serial.setSpecific(key: Self.ownerKey, value: owner)
    }

    /// The delivery queue whose callback is running on this thread, if any.
    static var running: DeliveryQueue? { DispatchQueue.getSpecific(key: ownerKey)?.queue }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        condition.lock()
        if queued >= highWater, Self.running !== self {
            let until = Date(timeIntervalSinceNow: longestWait)
            while queued > lowWater, condition.wait(until: until) {}
        }
        if !draining && pending.isEmpty {
            // Nothing queued or running: run it here, on URLSession's work queue, as
            // FoundationNetworking runs the completions of its own async API. Anything
            // added meanwhile queues behind it, so the order holds.
            draining = true
            queued += 1
            condition.unlock()
            block()
            condition.lock()
            ran()
            let schedule = !pending.isEmpty
            if !schedule { draining = false }
            condition.unlock()
            if schedule { serial.async { self.drain() } }
            return
        }
        queued += 1
        pending.append(block)
        let schedule = !draining
        draining = true
        condition.unlock()
        if schedule { serial.async { self.drain() } }
    }

    /// Runs the pending callbacks, batch by batch, until none is left; on ``serial``.
    private func drain() {
        condition.lock()
        while !pending.isEmpty {
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            condition.unlock()
            for block in batch {
                block()
                // Counted down one by one, so a waiting `addOperation` goes on as soon as
                // the queue is down to `lowWater`, not at the end of the batch.
                condition.lock()
                ran()
                condition.unlock()
            }
            condition.lock()
        }
        draining = false
        condition.unlock()
    }

    /// Counts one callback as run, waking a waiting `addOperation` once the queue is down
    /// to ``lowWater``; under `condition`.
    private func ran() {
        queued -= 1
        if queued == lowWater { condition.broadcast() }
    }
}
