/// Routes URLSession's callbacks for a ``Session``'s tasks to each task's ``TaskState``: one lookup, then its lock.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `states`, behind a leaf lock, is the only mutable state.
    private let states = Locked<[Int: TaskState]>([:])

    /// Counts the table's entries, with the other sessions'.
    let tasksInFlight: TasksInFlight

    init(tasksInFlight: TasksInFlight) {
        self.tasksInFlight = tasksInFlight
    }

    deinit {
        // Tasks URLSession never reported ended (it is invalidated) count no longer.
        tasksInFlight.remove(states.withLock { $0.count })
    }

    func register(_ task: URLSessionTask, _ state: TaskState) {
        let added = states.withLock { $0.updateValue(state, forKey: task.taskIdentifier) == nil }
        if added { tasksInFlight.add() }
    }

    /// Forgets `task` (it ended, never started, or its request goes on in another task); returns its state.
    @discardableResult
    func unregister(_ task: URLSessionTask) -> TaskState? {
        let state = states.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        if state != nil { tasksInFlight.remove() }
        return state
    }

    var allStates: [TaskState] { states.withLock { Array($0.values) } }

    private func state(for task: URLSessionTask) -> TaskState? {
        states.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let state = state(for: dataTask)
        // Stored before anything sees the response: the caller's next call sends them.
        if let cookies = state?.cookies, let http = response as? HTTPURLResponse { cookies.jar.store(from: http) }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        state?.handle(
            .responded(dataTask, status: status, expectedLength: response.expectedContentLength),
            reply: response)
        // Answering `.cancel` is ignored on Linux: a request that fails here cancels its task.
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state(for: dataTask)?.handle(.received(dataTask, data))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let state = state(for: task) else { return completionHandler(nil) }
        let decide: @Sendable () -> Void = {
            // The redirect's cookies are stored before the next hop takes the store's.
            state.cookies?.jar.store(from: response)
            state.handle(.redirected(task), redirect: (response, completionHandler))
        }
        // On URLSession's work queue, a policy that waited or made a task (`workQueue.sync`) would stall every session
        // of the process: it runs on the delegate's thread.
        guard let queue = session.delegateQueue as? DeliveryQueue else { return decide() }
        queue.serial.async(execute: decide)
    }

    /// Answers without credentials: a 401 is the caller's response, whatever its `WWW-Authenticate` says.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
        // Asked after the 401 is read whole; default handling never ends the task (6.3.1, Basic). The request completes
        // with the 401 first; then the answer cancels the task, which waits for URLSession's work queue: not here.
        let answer: @Sendable () -> Void = { completionHandler(.cancelAuthenticationChallenge, nil) }
        if let state = state(for: task) {
            state.handle(.ended(task, nil))
            state.control.async(answer)
        } else {
            DispatchQueue.global().async(execute: answer)
        }
        #else
        // With no credential storage the default handling sends nothing and delivers the 401.
        completionHandler(.performDefaultHandling, nil)
        #endif
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = unregister(task) else { return }
        state.handle(.ended(task, error))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        state(for: task)?.handle(.sent(task, total: totalBytesSent, expected: totalBytesExpectedToSend))
    }
}
