import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Requests per origin: at most `maximumConnectionsPerHost` run at once, the others wait in
/// line (see ``OriginLimiter``).
extension Session {
    /// Starts counting `state`'s deadline, then starts its first task, or queues it when its
    /// origin has no free slot. Every request, data or transfer, comes in through here.
    func admit(_ state: TaskState) {
        state.startDeadline()
        let alone = Self.unfinished.withLock { count in
            defer { count += 1 }
            return count == 0
        }
        let startNow = state.origin.map { origin in limiter.withLock { $0.enter(state, at: origin) } } ?? true
        guard startNow else { return }
        // With no other request of any session running, URLSession's work queue is idle and
        // `resume()` returns at once: start here, without a hop to the control queue (about
        // 6% of the requests per second one at a time). Otherwise a transfer may keep that
        // queue busy, and the wait belongs on the control queue (see `control`).
        if alone { start(state) } else { control.async { [self] in start(state) } }
    }

    /// Requests admitted and not yet finished, in every session of the process: they all
    /// share URLSession's one work queue.
    static let unfinished = Locked(0)

    /// Gives back `state`'s slot, or its place in the queue, when it has finished (once, from
    /// ``TaskState``), and starts the request that takes the slot over.
    func release(_ state: TaskState) {
        Self.unfinished.withLock { $0 -= 1 }
        guard let origin = state.origin else { return }
        limiter.withLock { limiter in
            guard let next = limiter.leave(state, at: origin) else { return }
            // Queued under the lock, so that `cancelAll` (which reads the queue under it)
            // finds `next` either still waiting or already on its way to the delegate.
            control.async { [self] in start(next) }
        }
    }

    /// Makes and resumes the first task of `state`; on the control queue.
    private func start(_ state: TaskState) {
        if state.transfer != nil {
            startTransferTask(for: state)
        } else {
            send(state.urlRequest, for: state)
        }
    }

    /// Cancels every request in flight or queued; each completes with
    /// ``FetchError/Code-swift.enum/cancelled``.
    public func cancelAll() {
        // Form uploads still being encoded stop before they start a task.
        cancelAllCount.withLock { $0 += 1 }
        // Queued requests end at once, without ever starting a task.
        for state in limiter.withLock({ $0.waiting }) {
            state.fail(state.error(.cancelled, "cancelled"))
        }
        control.async { [delegate] in
            for state in delegate.allStates {
                state.fail(state.error(.cancelled, "cancelled"))
            }
        }
    }
}
