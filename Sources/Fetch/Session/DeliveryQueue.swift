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
/// The wait never happens on the queue itself, and no callback ever waits for URLSession:
/// cancelling a task or making one (which wait for URLSession's work queue in
/// FoundationNetworking 6.3) happen on the session's control thread (see ``ControlThread``).
/// So this queue always drains, the work queue's wait is short, and the backpressure is
/// never switched off: at most ``highWater`` chunks (2 MiB) are queued, even while a
/// cancelled transfer goes on being read until its cancel reaches libcurl. Before, a
/// callback that cancelled from this queue waited behind libcurl's read loop with the
/// backpressure off, and every chunk read meanwhile was queued: 1.4 GB held for a 1 MiB
/// limit, and seconds of stall for every session in the process.
///
/// Callbacks do not run as `Operation`s: on Linux each one costs about 7 µs (a dispatch
/// about 0.7 µs), and URLSession sends one per 16 KiB received. A block handed to
/// `addOperation(_:)` while no callback is queued or running runs at once, on the thread
/// that adds it (URLSession's work queue): no dispatch and no wake-up of another thread,
/// which at one request in flight cost 10 to 15 % more CPU per request than raw
/// URLSession. Otherwise it joins a list that one drain on ``serial`` (also the
/// `underlyingQueue`) runs in order, in batches. Callbacks are short: the delegate never
/// waits for URLSession, and a response is built on the completion queue, not here.
/// (An `Operation` added any other way runs on ``serial``; URLSession adds only blocks.)
final class DeliveryQueue: OperationQueue, @unchecked Sendable {
    // `condition` guards `queued`, `pending`, `draining` and `holds`; the other `let`s are immutable.
    private let condition = NSCondition()
    /// Callbacks added and not yet run.
    private var queued = 0
    /// Callbacks waiting for the drain, in order.
    private var pending: [@Sendable () -> Void] = []
    /// Whether a drain is scheduled or running.
    private var draining = false
    /// How many streams hold the queue, softly and hard (see ``hold(from:to:)``).
    private var holds = (soft: 0, hard: 0)
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
        if queued >= highWater || holds != (0, 0), Self.running !== self {
            let until = Date(timeIntervalSinceNow: longestWait)
            while queued > lowWater || holds != (0, 0) {
                if holds.hard > 0 {
                    condition.wait()
                } else if !condition.wait(until: until) {
                    break
                }
            }
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

    /// Moves one stream's hold from `old` to `new` (see ``StreamSink``): while a stream's
    /// reader is behind by its buffer size, each callback URLSession adds waits, as it
    /// does while ``highWater`` callbacks are queued, which stops libcurl reading.
    ///
    /// URLSession on Linux has no way to stop reading one task: `suspend()` ends the
    /// transfer, and `resume()` sends the request again from the start. Waiting here stops
    /// the one work queue every session of the process shares, so a soft hold waits at most
    /// ``longestWait`` per callback (other transfers go on, slowly, and a reader that waits
    /// for another request of the process is never deadlocked); a hard hold, once the
    /// reader is behind by twice its buffer size, waits until it catches up or the stream
    /// ends, so memory stays bounded.
    func hold(from old: StreamSink.Pressure, to new: StreamSink.Pressure) {
        condition.lock()
        switch old {
        case .none: break
        case .soft: holds.soft -= 1
        case .hard: holds.hard -= 1
        }
        switch new {
        case .none: break
        case .soft: holds.soft += 1
        case .hard: holds.hard += 1
        }
        condition.broadcast()
        condition.unlock()
    }
}
