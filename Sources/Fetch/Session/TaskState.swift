/// Everything `Session` tracks for one request, from the moment it is admitted (queued or
/// started) to the completion: its ``TaskMachine`` under a lock, which it moves with the
/// events of URLSession, the caller, the deadline timer and the delegate, then carries out
/// what the machine asks for (see ARCHITECTURE.md).
///
/// Lock order (ARCHITECTURE.md, "Locks"): no two of a session's locks are held together. A
/// transition runs under this state's lock alone; its effects run after it is released.
final class TaskState: @unchecked Sendable, OriginLimited, DeadlineTracked {
    // `lock` guards `machine`, `marks` and `heard`; `originPlace` is guarded by the lock of the session's limiter,
    // `deadlineIndex` by the lock of the session's ``DeadlineTimer``; the `let`s are
    // immutable and Sendable (the URLSession objects are thread-safe).
    private let lock = Locked()
    private var machine: Machine
    /// The moments that become the response's metrics; `nil` when the session collects none.
    private var marks: TaskMarks?
    /// The head of a response as the delegate was handed it, and the task it came to: the
    /// task's own `response` is read under a lock of FoundationNetworking's (a queue `sync`).
    private var heard: (task: URLSessionTask, reply: URLResponse)?
    /// Whether the metrics ask the task for the bytes it sent (another of its locked reads):
    /// only when they are collected and the request sends a body; one without sent none.
    private let asksBytesSent: Bool
    /// The request as the caller made it.
    let request: any Request
    /// The request as first sent, which a start-over sends again.
    private let prepared: URLRequest
    /// The origin the request started on: it holds a slot there until it finishes.
    let origin: Origin?
    /// The overall deadline; `nil` for none.
    let deadline: Duration?
    /// What a download, an upload or a stream adds to the task; `nil` for a plain call.
    let carrier: (any TaskCarrier)?
    /// Decides each redirect (see ``RedirectStep``).
    let redirectPolicy: RedirectPolicy
    /// Headers dropped when a redirect changes origin, besides the credentials.
    let sensitiveHeaders: Set<String>
    /// The call's cookies on each hop; `nil` without a cookie store.
    let cookies: CallCookies?
    /// The file an upload sends as its body, so a 307/308 can send it again; `nil` otherwise.
    let bodyFile: URL?
    /// Called once, on `queue`, with the response or the error.
    private let completion: @Sendable (Result<Response, any Error>) -> Void
    /// Where the completion is called: the session's completion queue, or the carrier's
    /// serial queue of events on it, so that the completion follows the last progress report
    /// or reader callback without waiting for another thread.
    private let queue: DispatchQueue
    /// Where the completion runs instead when no other task is in flight (see ``SoloLane``):
    /// the session's lane for a plain call, `nil` for another kind or a session with a
    /// configured completion queue.
    private let soloLane: SoloLane?
    /// The session's thread for calls into URLSession tasks (see `Session.control`).
    private let control: ControlThread
    /// Routes tasks' callbacks to their request.
    private let delegate: SessionDelegate
    /// Guarded by the session limiter's lock (see ``OriginLimited``).
    var originPlace = OriginPlace.new
    /// Guarded by the deadline timer's lock (see ``DeadlineTracked``).
    var deadlineIndex: Int?

    /// The machine of a request of a ``Session``.
    typealias Machine = TaskMachine<URLSessionTask, Session, any TaskCarrier>

    /// Where effects are carried out, which decides where a task is cancelled or sent.
    ///
    /// In FoundationNetworking 6.3, `cancel()` and making a task wait (`workQueue.sync`) for
    /// URLSession's one work queue, shared by every session in the process, which a fast
    /// transfer keeps busy. Only the session's ``ControlThread`` waits for it: the delegate
    /// queue never does.
    enum Caller {
        /// The session's control thread, or a caller's thread starting a request while no
        /// task of any session is in flight: a cancel or a new task is made at once.
        case control
        /// Any other thread (a caller's, the deadline timer's, URLSession's delegate queue):
        /// a cancel or a new task is made on the control thread.
        case elsewhere
    }

    /// A request admitted by `owner`, which it keeps alive until it finishes.
    init(
        owner: Session, request: any Request, urlRequest: URLRequest, cookies: CallCookies? = nil,
        deadline: Duration?, bodyFile: URL?, carrier: (any TaskCarrier)?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        let options = request.options
        let limit = options.maximumBodySize ?? owner.configuration.maximumBodySize
        let body: Machine.Body = if let carrier, carrier.takesBody { .handedTo(carrier) } else { .memory(limit: limit) }
        machine = TaskMachine(owner: owner, request: urlRequest, body: body)
        marks = owner.configuration.collectsMetrics ? TaskMarks() : nil
        asksBytesSent =
            marks != nil && (urlRequest.httpBody != nil || urlRequest.httpBodyStream != nil || bodyFile != nil)
        origin = Origin(urlRequest.url)
        // A call's own completion queue takes the place of the session's, solo lane included.
        let ownQueue = options.completionQueue
        (control, delegate, queue) = (
            owner.control, owner.delegate, carrier?.events ?? ownQueue ?? owner.completionQueue
        )
        soloLane = carrier == nil && ownQueue == nil ? owner.soloLane : nil
        (self.request, prepared, self.deadline, self.carrier) = (request, urlRequest, deadline, carrier)
        redirectPolicy = options.redirectPolicy ?? owner.configuration.redirectPolicy
        sensitiveHeaders = owner.configuration.sensitiveHeaders.union(options.sensitiveHeaders)
        self.cookies = cookies
        self.bodyFile = bodyFile
        self.completion = completion
    }

    /// The request as it is sent now: the first one until a redirect.
    var urlRequest: URLRequest { lock.withLock { machine.request } }

    /// Makes a ``FetchError`` that names the request as it is now.
    func error(_ code: FetchError.Code, _ reason: String) -> FetchError {
        lock.withLock { machine.error(code, reason) }
    }

    /// Fails the request with `error` unless it has finished, and stops its task.
    func fail(_ error: FetchError, from caller: Caller = .elsewhere) {
        handle(.failed(error), caller)
    }

    /// Fails the request as cancelled unless it has finished, and stops its task.
    func cancel(from caller: Caller = .elsewhere) {
        fail(error(.cancelled, "cancelled"), from: caller)
    }

    /// Cancels for the caller: the carrier stops first (a download's file is then kept or
    /// gone before the caller hears of the cancel), then the request fails.
    func cancelByCaller() {
        carrier?.stop()
        cancel()
    }

    /// Completes the request with the 401 that `task` received whole, then has its
    /// authentication challenge answered on the control thread: the answer cancels the task,
    /// which waits for URLSession's work queue, where the delegate's callback may be running.
    func challenged(_ task: URLSessionTask, answer: @escaping @Sendable () -> Void) {
        handle(.ended(task, nil), .elsewhere)
        control.async(answer)
    }

    /// Fails the request because its deadline has passed; called by the ``DeadlineTimer``.
    func deadlineExpired() {
        let what = carrier?.uploadsBody == true ? "transfer" : "response"
        fail(error(.deadlineExceeded, "no complete \(what) within the deadline of \((deadline ?? .zero).seconds) s"))
    }

    /// Moves the machine with `event` under the lock, then carries out its effects. Session
    /// sends ``TaskMachine/Event/started(_:)`` (from the control thread), the delegate sends
    /// what URLSession reports (from its delegate queue).
    /// - Parameters:
    ///   - reply: the head of the response that came with a ``TaskMachine/Event/responded(_:status:expectedLength:)``,
    ///     kept to complete with once its task ends.
    ///   - redirect: the redirect URLSession waits for a decision about, and how to hand the
    ///     decision back; it is never called when the request has finished (the task's
    ///     cancel ends the task).
    func handle(
        _ event: Machine.Event, _ caller: Caller, reply: URLResponse? = nil,
        redirect: (response: HTTPURLResponse, answer: (URLRequest?) -> Void)? = nil
    ) {
        // Read before taking the lock: the task's own lock is not one of ours.
        var sent: Int64 = 0
        var ended: URLSessionTask?
        if case .ended(let task, _) = event {
            ended = task
            if asksBytesSent { sent = task.countOfBytesSent }
        }
        let (effects, marks, heardReply) = lock.withLock { () -> ([Machine.Effect], TaskMarks?, URLResponse?) in
            let effects = machine.handle(event)
            note(event, sent: sent)
            return (effects, self.marks, hear(event, reply))
        }
        for effect in effects {
            switch effect {
            case .resume(let task):
                task.resume()
            case .cancel(let task):
                if caller == .control { task.cancel() } else { control.async { task.cancel() } }
            case .forget(let task):
                delegate.unregister(task)
            case .decideRedirect(let current, let hop):
                guard case .redirected(let task) = event, let redirect else { continue }
                let step = RedirectStep(
                    after: redirect.response, of: current, hop: hop, policy: redirectPolicy,
                    sensitiveHeaders: sensitiveHeaders, resendsFile: bodyFile != nil, cookies: cookies
                )
                handle(.decided(task, step), caller, redirect: redirect)
            case .answerRedirect(let next):
                redirect?.answer(next)
            case .open(let carrier):
                guard case .responded(let task, _, _) = event, let reply else { continue }
                open(carrier, reply, from: task, caller)
            case .write(let carrier, let data):
                if let error = carrier.write(data) { handle(.failed(error), caller) }
            case .reportSent(let total, let expected):
                carrier?.sent(total: total, expected: expected)
            case .send(let next, let owner):
                if caller == .control {
                    owner.send(next, for: self)
                } else {
                    control.async { owner.send(next, for: self) }
                }
            case .complete(let outcome):
                // The response is built on the completion queue: this may be URLSession's work
                // queue, which every session of the process shares (see `DeliveryQueue`).
                let metrics = metrics(marks, outcome)
                let (request, completion, carrier) = (self.request, self.completion, self.carrier)
                let reply = heardReply ?? ended?.response
                let deliver: @Sendable () -> Void = {
                    let result = Self.result(outcome, reply: reply, request: request, metrics: metrics)
                    guard let carrier else { return completion(result) }
                    carrier.finish(result) { settled in
                        completion(
                            settled.mapError {
                                ($0 as? FetchError)?.naming(request) ?? $0
                            })
                    }
                }
                if let soloLane, delegate.tasksInFlight.isEmpty, soloLane.async(deliver) { continue }
                queue.async(execute: deliver)
            case .release(let owner):
                owner.release(self)
            }
        }
    }

    /// Notes what the metrics need of `event`; under the lock, where the machine just moved.
    private func note(_ event: Machine.Event, sent: Int64) {
        guard marks != nil else { return }
        switch event {
        case .started: marks?.taskStarted()
        case .responded: marks?.responseArrived()
        case .ended: marks?.bytesSent = sent
        case .received, .sent, .redirected, .decided, .failed, .startOver: break
        }
        marks?.redirects = machine.hops
    }

    /// Keeps the head of a response that came with `event`, or for a task that ended, gives
    /// back the one that came to it; under the lock.
    private func hear(_ event: Machine.Event, _ reply: URLResponse?) -> URLResponse? {
        switch event {
        case .responded(let task, _, _):
            if let reply { heard = (task, reply) }
        case .ended(let task, _):
            if let heard, heard.task === task { return heard.reply }
        case .started, .received, .sent, .redirected, .decided, .failed, .startOver:
            break
        }
        return nil
    }

    /// Hands the head of `task`'s response to `carrier`, and fails or starts the request
    /// over as it answers.
    private func open(_ carrier: any TaskCarrier, _ reply: URLResponse, from task: URLSessionTask, _ caller: Caller) {
        switch carrier.open(reply, request: request, sent: urlRequest) {
        case .accepted:
            break
        case .failed(let error):
            handle(.failed(error), caller)
        case .startOver:
            var fresh = prepared
            do {
                try carrier.restart(&fresh, for: request)
                handle(.startOver(task, fresh), caller)
            } catch {
                handle(.failed(error as? FetchError ?? FetchError(.file, reason: "\(error)")), caller)
            }
        }
    }

    /// The metrics of the request ending with `outcome`, from `marks` taken with it.
    private func metrics(_ marks: TaskMarks?, _ outcome: Machine.Outcome) -> ResponseMetrics {
        guard let marks, case .received(let body, _) = outcome else { return ResponseMetrics() }
        // Counted where the body went: into memory, into the file, or to the stream's reader.
        let received = carrier.map { $0.takesBody ? $0.bodyBytes : Int64(body.count) } ?? Int64(body.count)
        return marks.metrics(bytesReceived: received)
    }

    /// The result an outcome stands for: a response built from the task's reply, or the error.
    private static func result(
        _ outcome: Machine.Outcome, reply: URLResponse?,
        request: any Request, metrics: ResponseMetrics
    ) -> Result<Response, any Error> {
        switch outcome {
        case .failed(let error):
            return .failure(error)
        case .received(let body, let sent):
            guard let http = reply as? HTTPURLResponse else {
                return .failure(
                    FetchError(
                        .badServerResponse, reason: "the reply was not an HTTP response",
                        method: HTTPMethod(rawValue: sent.httpMethod ?? "GET"), url: sent.url
                    ))
            }
            return .success(
                Response(
                    request: request, urlRequest: sent, status: http.statusCode, headers: HTTPHeaders(http), body: body,
                    url: http.url ?? sent.url, metrics: metrics
                ))
        }
    }
}
