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
        if let deadline = state.deadline { deadlines.add(state, after: deadline) }
        guard let origin = state.origin else { return control.async { [self] in start(state) } }
        let (alone, startNow) = limiter.withLock { limiter in (limiter.isIdle, limiter.enter(state, at: origin)) }
        guard startNow else { return }
        // With no other request of this session running, URLSession's work queue is most
        // likely idle and `resume()` returns at once: start here, without a hop to the
        // control thread (about 6% of the requests per second one at a time). Otherwise a
        // transfer may keep that queue busy, and the wait belongs on the control thread (see
        // `control`). Another session's transfer can still keep it busy; the count is per
        // session so that sessions share no state.
        if alone { start(state) } else { control.async { [self] in start(state) } }
    }

    /// Gives back what `state` held once it has finished (once, from ``TaskState``): its
    /// deadline, and its slot or its place in the queue; starts the request that takes the
    /// slot over.
    func release(_ state: TaskState) {
        if state.deadline != nil { deadlines.remove(state) }
        guard let origin = state.origin else { return }
        limiter.withLock { limiter in
            guard let next = limiter.leave(state, at: origin) else { return }
            // Queued under the lock, so that `cancelAll` (which reads the queue under it)
            // finds `next` either still waiting or already on its way to the delegate.
            control.async { [self] in start(next) }
        }
    }

    /// Makes and resumes the first task of `state`; on the control thread.
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
                state.fail(state.error(.cancelled, "cancelled"), from: .control)
            }
        }
    }
}
