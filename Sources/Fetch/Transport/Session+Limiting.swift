extension Session {
    /// Starts `state`'s deadline, then its first task, or queues it when its origin has no free slot (all calls).
    func admit(_ state: TaskState) {
        if let deadline = state.deadline { deadlines.add(state, after: deadline) }
        guard let origin = state.origin else { return control.async { [self] in send(state.urlRequest, for: state) } }
        guard limiter.withLock({ $0.enter(state, at: origin) }) else { return }
        // Making a task waits for URLSession's work queue: so on the control thread, unless no
        // session has a task in flight, and never from a delegate queue the work queue may wait on.
        if state.kindHandler == nil, delegate.tasksInFlight.isEmpty, !DeliveryQueue.isRunning {
            return send(state.urlRequest, for: state)
        }
        control.async { [self] in send(state.urlRequest, for: state) }
    }

    /// Gives back the deadline and the slot or queue place of `state`, which has finished.
    func release(_ state: TaskState) {
        if state.deadline != nil { deadlines.remove(state) }
        guard let origin = state.origin else { return }
        limiter.withLock { start($0.leave(state, at: origin)) }
    }

    /// Tells the line a head arrived from `state`'s first origin, which may let waiters in.
    func heard(_ state: TaskState) {
        guard let origin = state.origin else { return }
        limiter.withLock { start($0.responded(state, at: origin)) }
    }

    /// Called under the limiter's lock, so `cancelAll` finds each either still waiting or on its way to the delegate.
    private func start(_ admitted: [TaskState]) {
        for next in admitted {
            control.async { [self] in send(next.urlRequest, for: next) }
        }
    }

    /// Cancels every request in flight or queued; each completes with ``FetchError/Code-swift.enum/cancelled``.
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
