/// Requests per origin: at most `maximumConnectionsPerHost` run at once, the others wait in
/// line (see ``OriginLimiter``).
extension Session {
    /// Starts counting `state`'s deadline, then starts its first task, or queues it when its
    /// origin has no free slot. Every request of every kind comes in through here.
    func admit(_ state: TaskState) {
        if let deadline = state.deadline { deadlines.add(state, after: deadline) }
        guard let origin = state.origin else { return control.async { [self] in send(state.urlRequest, for: state) } }
        guard limiter.withLock({ $0.enter(state, at: origin) }) else { return }
        // Making a task waits for URLSession's shared work queue: so on the control thread,
        // unless no session has a task in flight (then the queue is free), and never from a
        // delegate queue, whose callback the work queue may wait for.
        if state.carrier == nil, delegate.tasksInFlight.isEmpty, !DeliveryQueue.isRunning {
            return send(state.urlRequest, for: state)
        }
        control.async { [self] in send(state.urlRequest, for: state) }
    }

    /// Gives back what `state` held once it has finished: its deadline, and its slot (to the
    /// request that takes it over) or its place in the queue.
    func release(_ state: TaskState) {
        if state.deadline != nil { deadlines.remove(state) }
        guard let origin = state.origin else { return }
        limiter.withLock { limiter in
            guard let next = limiter.leave(state, at: origin) else { return }
            // Queued under the lock, so that `cancelAll` (which reads the queue under it)
            // finds `next` either still waiting or already on its way to the delegate.
            control.async { [self] in send(next.urlRequest, for: next) }
        }
    }

    /// Cancels every request in flight or queued; each completes with
    /// ``FetchError/Code-swift.enum/cancelled``.
    public func cancelAll() {
        // Form uploads still being encoded stop before they start a task.
        cancelAllCount.withLock { $0 += 1 }
        // Queued requests end at once, without ever starting a task.
        for state in limiter.withLock({ $0.waiting }) {
            state.cancel()
        }
        control.async { [delegate] in
            for state in delegate.allStates {
                state.cancel()
            }
        }
    }
}
