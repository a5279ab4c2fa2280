/// Requests per origin: at most `maximumConnectionsPerHost` run at once on an origin that
/// serves one per connection (4 while it answers quickly), more on one that multiplexes or is
/// not known yet; the others wait in line (see ``OriginLimiter``).
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
        if state.kindHandler == nil, delegate.tasksInFlight.isEmpty, !DeliveryQueue.isRunning {
            return send(state.urlRequest, for: state)
        }
        control.async { [self] in send(state.urlRequest, for: state) }
    }

    /// Gives back what `state` held once it has finished: its deadline, and its slot (to the
    /// request that takes it over) or its place in the queue.
    func release(_ state: TaskState) {
        if state.deadline != nil { deadlines.remove(state) }
        guard let origin = state.origin else { return }
        limiter.withLock { start($0.leave(state, at: origin)) }
    }

    /// Tells the line that the head of `state`'s response arrived from the origin it entered
    /// on, which may prove that origin multiplexes or slow and let waiting requests in.
    func heard(_ state: TaskState) {
        guard let origin = state.origin else { return }
        limiter.withLock { start($0.responded(state, at: origin)) }
    }

    /// Starts the requests the line let in. Called under the limiter's lock, so that
    /// `cancelAll` (which reads the queue under it) finds each either still waiting or already
    /// on its way to the delegate.
    private func start(_ admitted: [TaskState]) {
        for next in admitted {
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
