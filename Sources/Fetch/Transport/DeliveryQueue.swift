/// The delegate queue of a ``Session``: a serial `OperationQueue` that runs a callback at once on the adding thread
/// when no other is queued or running, else queues it, in order, for ``serial``; the adding thread never waits.
///
/// FoundationNetworking adds every callback on its one work queue, shared by every session, and reads on only once
/// it returns, so chunks never pile up. Callbacks wait for nothing: not URLSession (``ControlThread``), a stream's
/// reader (``StreamSink``) or the redirect policy (on ``serial``). Closures, not `Operation`s, cheaper on Linux.
final class DeliveryQueue: OperationQueue, @unchecked Sendable {
    // `state`, behind its lock, is the only mutable state of its own.
    /// The callbacks waiting for the drain, and whether one runs or a drain is due.
    private struct State {
        var pending: [@Sendable () -> Void] = []
        var busy = false
    }

    private let state = Locked(State())
    let serial = DispatchQueue(label: "Fetch.Session.delegate")

    private static let serialKey = DispatchSpecificKey<Bool>()

    override init() {
        super.init()
        maxConcurrentOperationCount = 1
        underlyingQueue = serial
        name = "Fetch.Session.delegate"
        serial.setSpecific(key: Self.serialKey, value: true)
    }

    /// Whether this thread runs a queued callback of a delivery queue, on its ``serial``.
    static var isRunning: Bool { DispatchQueue.getSpecific(key: serialKey) == true }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.busy {
                state.pending.append(block)
                return false
            }
            state.busy = true
            return true
        }
        guard runNow else { return }
        // Here, on URLSession's work queue; anything added meanwhile queues behind it.
        block()
        let drain = state.withLock { state in
            if state.pending.isEmpty { state.busy = false }
            return state.busy
        }
        if drain { serial.async { self.drain() } }
    }

    private func drain() {
        while true {
            let batch = state.withLock { state in
                defer { state.pending.removeAll(keepingCapacity: true) }
                if state.pending.isEmpty { state.busy = false }
                return state.pending
            }
            if batch.isEmpty { return }
            for block in batch { block() }
        }
    }
}
