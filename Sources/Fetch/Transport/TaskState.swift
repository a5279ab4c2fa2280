/// Everything `Session` tracks for one request, from admission to completion: its ``TaskMachine``, moved by URLSession,
/// the caller, the deadline timer and the delegate under this lock alone; the effects run after it is released.
final class TaskState: @unchecked Sendable, OriginLimited {
    // `lock` guards `machine`, `marks`, `heard`; the limiter `originPlace`, `originAdmitted`; the `let`s are Sendable.
    private let lock = Locked()
    private var machine: Machine
    /// The metrics known so far, noted where the machine already acts, never per chunk; `nil` when none are collected.
    private var marks: ResponseMetrics?
    /// Monotonic nanoseconds.
    private let admitted = DispatchTime.now().uptimeNanoseconds
    /// The head of a response as the delegate got it, and its task: `task.response` takes a FoundationNetworking lock.
    private var heard: (task: URLSessionTask, reply: URLResponse)?
    /// Whether the metrics ask the task for the bytes it sent (another locked read): only for a request with a body.
    private let asksBytesSent: Bool
    let request: any Request
    /// The request as first sent, which a start-over sends again.
    private let prepared: URLRequest
    /// The origin the request started on: it holds a slot there until it finishes.
    let origin: Origin?
    let deadline: Duration?
    let kindHandler: (any TaskKindHandler)?
    let redirectPolicy: RedirectPolicy
    let sensitiveHeaders: Set<String>
    let cookies: CallCookies?
    /// The file an upload sends as its body, so a 307/308 can send it again; `nil` otherwise.
    let bodyFile: URL?
    /// Called once, on `queue`, with the response or the error.
    private let completion: @Sendable (Result<Response, any Error>) -> Void
    /// The completion queue, or the kindHandler's serial queue on it, so the completion follows its last report.
    private let queue: DispatchQueue
    private let loneCompletionQueue: LoneCompletionQueue?
    let control: ControlThread
    private let delegate: SessionDelegate
    var originPlace = OriginPlace.new
    var originAdmitted: ContinuousClock.Instant?

    typealias Machine = TaskMachine<URLSessionTask, Session, any TaskKindHandler>

    /// A request admitted by `owner`, which it keeps alive until it finishes.
    init(
        owner: Session, request: any Request, urlRequest: URLRequest, cookies: CallCookies? = nil,
        deadline: Duration?, bodyFile: URL?, kindHandler: (any TaskKindHandler)?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        let options = request.options
        let limit = options.maximumBodySize ?? owner.configuration.maximumBodySize
        let body: Machine.Body =
            if let kindHandler, kindHandler.takesBody { .handedTo(kindHandler) } else { .memory(limit: limit) }
        machine = TaskMachine(owner: owner, request: urlRequest, body: body)
        marks = owner.configuration.collectsMetrics ? ResponseMetrics() : nil
        marks?.start = Date()
        asksBytesSent =
            marks != nil && (urlRequest.httpBody != nil || urlRequest.httpBodyStream != nil || bodyFile != nil)
        origin = Origin(urlRequest.url)
        (control, delegate, queue) = (owner.control, owner.delegate, kindHandler?.events ?? owner.queue(for: options))
        // A call's own completion queue takes the place of the session's lone-completion queue too.
        loneCompletionQueue = kindHandler == nil && options.completionQueue == nil ? owner.loneCompletionQueue : nil
        (self.request, prepared, self.deadline, self.kindHandler) = (request, urlRequest, deadline, kindHandler)
        redirectPolicy = options.redirectPolicy ?? owner.configuration.redirectPolicy
        sensitiveHeaders = owner.configuration.sensitiveHeaders.union(options.sensitiveHeaders)
        self.cookies = cookies
        self.bodyFile = bodyFile
        self.completion = completion
    }

    var urlRequest: URLRequest { lock.withLock { machine.request } }

    func error(_ code: FetchError.Code, _ reason: String) -> FetchError {
        lock.withLock { machine.error(code, reason) }
    }

    /// Fails the request as cancelled unless it has finished, and stops its task.
    func cancel() {
        handle(.failed(error(.cancelled, "cancelled")))
    }

    /// Cancels for the caller: the kindHandler stops first, so a download's file is settled before the caller hears.
    func cancelByCaller() {
        kindHandler?.stop()
        cancel()
    }

    func deadlineExpired() {
        let what = kindHandler?.uploadsBody == true ? "transfer" : "response"
        let reason = "no complete \(what) within the deadline of \((deadline ?? .zero).seconds) s"
        handle(.failed(error(.deadlineExceeded, reason)))
    }

    /// Moves the machine under the lock, then carries out its effects; only the ``ControlThread`` cancels, which waits
    /// for URLSession's one work queue. `reply` is the head of `responded`; `redirect` is never answered once finished.
    func handle(
        _ event: Machine.Event, reply: URLResponse? = nil,
        redirect: (response: HTTPURLResponse, answer: (URLRequest?) -> Void)? = nil
    ) {
        // Read before taking the lock: the task's own lock is not one of ours.
        var sent: Int64 = 0
        var ended: URLSessionTask?
        if case .ended(let task, _) = event {
            ended = task
            if asksBytesSent { sent = task.countOfBytesSent }
        }
        let (effects, marks, (heardReply, heardBy)) = lock.withLock {
            () -> ([Machine.Effect], ResponseMetrics?, (URLResponse?, Session?)) in
            let effects = machine.handle(event)
            // Noted before `marks` is read: the note adds to them.
            let noted = note(event, sent: sent, reply: reply)
            return (effects, self.marks, noted)
        }
        heardBy?.heard(self)
        // Slot and deadline go back before the completion is queued: a request it sends finds the line as this left it.
        for case .release(let owner) in effects { owner.release(self) }
        for effect in effects {
            switch effect {
            case .resume(let task):
                task.resume()
            case .cancel(let task):
                control.async { task.cancel() }
            case .forget(let task):
                delegate.unregister(task)
            case .decideRedirect(let current, let hop):
                guard case .redirected(let task) = event, let redirect else { continue }
                let step = RedirectStep.after(
                    redirect.response, of: current, hop: hop, policy: redirectPolicy,
                    sensitiveHeaders: sensitiveHeaders, resendsFile: bodyFile != nil, cookies: cookies
                )
                handle(.decided(task, step), redirect: redirect)
            case .answerRedirect(let next):
                redirect?.answer(next)
            case .open(let kindHandler):
                guard case .responded(let task, _, _) = event, let reply else { continue }
                open(kindHandler, reply, from: task)
            case .write(let kindHandler, let data):
                if let error = kindHandler.write(data) { handle(.failed(error)) }
            case .reportSent(let total, let expected):
                kindHandler?.sent(total: total, expected: expected)
            case .send(let next, let owner):
                // Never on the control thread: a start-over or a redirect comes from the delegate.
                control.async { owner.send(next, for: self) }
            case .complete(let outcome):
                // The response is built on the completion queue, not on URLSession's work queue.
                let metrics = metrics(marks, outcome)
                let (request, completion, kindHandler) = (self.request, self.completion, self.kindHandler)
                let reply = heardReply ?? ended?.response
                let deliver: @Sendable () -> Void = {
                    let result = Self.result(outcome, reply: reply, request: request, metrics: metrics)
                    guard let kindHandler else { return completion(result) }
                    kindHandler.finish(result) { settled in
                        completion(settled.mapError { ($0 as? FetchError)?.naming(request) ?? $0 })
                    }
                }
                if let loneCompletionQueue, delegate.tasksInFlight.isEmpty, loneCompletionQueue.async(deliver) {
                    continue
                }
                queue.async(execute: deliver)
            case .release:
                break
            }
        }
    }

    /// Notes `event` for the metrics, under the lock. Returns the ended task's head if known, and the owner whose line
    /// is to hear of a head from the origin the request entered on (before any redirect).
    private func note(_ event: Machine.Event, sent: Int64, reply: URLResponse?) -> (URLResponse?, Session?) {
        marks?.redirects = machine.hops
        switch event {
        case .started:
            // The first task's start: later tasks (a resent hop) change nothing.
            if marks?.queued == nil { marks?.queued = sinceAdmission }
        case .responded(let task, _, _):
            // A later head (after a redirect that was sent again) wins.
            marks?.timeToFirstByte = sinceAdmission
            if let reply { heard = (task, reply) }
            if machine.hops == 0, case .running(let running, let owner) = machine.phase, running === task {
                return (nil, owner)
            }
        case .ended(let task, _):
            marks?.bytesSent = sent
            if let heard, heard.task === task { return (heard.reply, nil) }
        case .received, .declined, .sent, .redirected, .decided, .failed, .startOver:
            break
        }
        return (nil, nil)
    }

    private var sinceAdmission: Duration {
        .nanoseconds(Int64(clamping: max(DispatchTime.now().uptimeNanoseconds, admitted) - admitted))
    }

    private func open(_ kindHandler: any TaskKindHandler, _ reply: URLResponse, from task: URLSessionTask) {
        // A reply that is not HTTP has no body for a kindHandler; the request fails at its end.
        guard let http = reply as? HTTPURLResponse else { return handle(.declined(task)) }
        let head = Self.head(http, request: request, sent: urlRequest)
        switch kindHandler.open(head, expectedLength: reply.expectedContentLength) {
        case .accepted:
            break
        case .declined:
            handle(.declined(task))
        case .failed(let error):
            handle(.failed(error))
        case .startOver:
            var fresh = prepared
            do {
                try kindHandler.restart(&fresh)
                handle(.startOver(task, fresh))
            } catch {
                handle(.failed(error as? FetchError ?? FetchError(.file, reason: "\(error)")))
            }
        }
    }

    private func metrics(_ marks: ResponseMetrics?, _ outcome: Machine.Outcome) -> ResponseMetrics {
        guard var metrics = marks, case .received(let body, _) = outcome else { return ResponseMetrics() }
        metrics.total = sinceAdmission
        // Counted where the body went: into memory, into the file, or to the stream's reader.
        metrics.bytesReceived = kindHandler.map { $0.takesBody ? $0.bodyBytes : Int64(body.count) } ?? Int64(body.count)
        return metrics
    }

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
            var response = head(http, request: request, sent: sent)
            (response.body, response.metrics) = (body, metrics)
            return .success(response)
        }
    }

    private static func head(_ http: HTTPURLResponse, request: any Request, sent: URLRequest) -> Response {
        Response(
            request: request, urlRequest: sent, status: http.statusCode, headers: HTTPHeaders(http),
            url: http.url ?? sent.url)
    }
}
