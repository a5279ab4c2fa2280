/// The life of one request of a ``Session`` as a pure value (no lock, I/O or clock); ``TaskState`` keeps it under its
/// lock and carries out the effects after unlocking, in order. ``Effect/complete(_:)`` comes only with a move from a
/// live phase to a finished one, and no event leaves a finished phase: the completion comes once.
struct TaskMachine<Task: AnyObject, Owner, KindHandler> {
    enum Body {
        case memory(limit: Int)
        /// Handed to `KindHandler` as it arrives, unless it declines a response (``Event/declined(_:)``): then the
        /// first ``Response/errorBodyLimit`` bytes are kept.
        case handedTo(KindHandler)
    }

    /// Where the request stands. Live phases hold the owner, kept alive while it runs; tasks compare by identity.
    enum Phase {
        /// No task carries it: it waits for a slot, for its first task, or for a resent hop's.
        case admitted(Owner)
        case running(Task, Owner)
        case awaitingRedirectDecision(Task, Owner)
        /// Finished during `Task`'s redirect decision: cancelled only after it, as FoundationNetworking crashes
        /// ("Received callback for HTTP redirection, but we're not waiting for it") on a decision after a cancel.
        case cancelAfterRedirectDecision(Task)
        case finished
    }

    enum Event {
        case started(Task)
        case responded(Task, status: Int, expectedLength: Int64)
        case declined(Task)
        case received(Task, Data)
        /// `expected` is 0 when unknown.
        case sent(Task, total: Int64, expected: Int64)
        /// `Task`'s response cannot continue the partial file: send `URLRequest` from byte 0.
        case startOver(Task, URLRequest)
        case redirected(Task)
        /// The redirect of `Task` was decided, with no lock held (the policy may do anything).
        case decided(Task, RedirectStep)
        case ended(Task, (any Error)?)
        case failed(FetchError)
    }

    /// What the owner of the machine must do, in the order given.
    enum Effect {
        case resume(Task)
        case cancel(Task)
        /// Stop routing `Task`'s callbacks to the request: it carries it no more.
        case forget(Task)
        /// Ask the policy, lock-free, about the redirect of `from` after `hop` hops; then ``Event/decided(_:_:)``.
        case decideRedirect(from: URLRequest, hop: Int)
        /// Hand the decision to URLSession: follow `URLRequest`, or `nil` to end with the 3xx.
        case answerRedirect(URLRequest?)
        case send(URLRequest, Owner)
        /// Hand the head to `KindHandler`, which may fail the request or start it over.
        case open(KindHandler)
        case write(KindHandler, Data)
        case reportSent(total: Int64, expected: Int64)
        case complete(Outcome)
        /// Give back what the request held: its slot on its origin, its deadline, the owner.
        case release(Owner)
    }

    enum Outcome {
        case received(Data, sent: URLRequest)
        case failed(FetchError)
    }

    private(set) var phase: Phase
    /// The request as it is sent now: the first one until a redirect.
    private(set) var request: URLRequest
    private(set) var hops = 0
    let disposition: Body
    private(set) var body = Data()
    private(set) var declined = false

    init(owner: Owner, request: URLRequest, body: Body) {
        phase = .admitted(owner)
        self.request = request
        disposition = body
    }

    var isFinished: Bool {
        switch phase {
        case .admitted, .running, .awaitingRedirectDecision: false
        case .cancelAfterRedirectDecision, .finished: true
        }
    }

    var method: HTTPMethod { HTTPMethod(rawValue: request.httpMethod ?? "GET") }

    /// A ``FetchError`` that names the request as it is now.
    func error(_ code: FetchError.Code, _ reason: String) -> FetchError {
        FetchError(code, reason: reason, method: method, url: request.url)
    }

    mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .started(let task): return start(task)
        case .responded(let task, let status, let expectedLength):
            return respond(task, status: status, expectedLength: expectedLength)
        case .received(let task, let data): return receive(task, data)
        case .declined(let task):
            // The body of the running task's response is kept in memory for the error.
            if runs(task) { declined = true }
            return []
        case .sent(let task, let total, let expected):
            return runs(task) ? [.reportSent(total: total, expected: expected)] : []
        case .startOver(let task, let fresh): return startOver(task, fresh)
        case .redirected(let task): return redirect(task)
        case .decided(let task, let step): return decide(task, step)
        case .ended(let task, let error): return end(task, error)
        case .failed(let error): return finish(.failed(error))
        }
    }

    private func runs(_ task: Task) -> Bool {
        if case .running(let running, _) = phase { return running === task }
        return false
    }

    /// Lets `task` carry an admitted request; any other task is cancelled before it runs.
    private mutating func start(_ task: Task) -> [Effect] {
        guard case .admitted(let owner) = phase else { return [.forget(task), .cancel(task)] }
        phase = .running(task, owner)
        return [.resume(task)]
    }

    /// A response to HEAD, a 204 and a 304 have no body whatever their Content-Length says.
    private mutating func respond(_ task: Task, status: Int, expectedLength: Int64) -> [Effect] {
        guard runs(task) else { return [] }
        switch disposition {
        case .handedTo(let kindHandler):
            (declined, body) = (false, Data())
            return [.open(kindHandler)]
        case .memory(let limit):
            guard !Response.hasNoBody(method: method.rawValue, status: status) else { return [] }
            if expectedLength > Int64(limit) { return tooLarge("\(expectedLength) bytes", limit) }
            if expectedLength > 0 { body.reserveCapacity(Int(expectedLength)) }
            return []
        }
    }

    private mutating func receive(_ task: Task, _ data: Data) -> [Effect] {
        guard runs(task) else { return [] }
        switch disposition {
        case .handedTo(let kindHandler):
            guard declined else { return [.write(kindHandler, data)] }
            body.append(data.prefix(max(0, Response.errorBodyLimit - body.count)))
            return []
        case .memory(let limit):
            guard body.count + data.count <= limit else { return tooLarge("more than \(limit) bytes", limit) }
            body.append(data)
            return []
        }
    }

    private mutating func tooLarge(_ size: String, _ limit: Int) -> [Effect] {
        finish(.failed(error(.bodyTooLarge, "the response body (\(size)) is larger than the limit of \(limit) bytes")))
    }

    /// Sends the request again as `fresh` in a new task; the running `task` ends unheard.
    private mutating func startOver(_ task: Task, _ fresh: URLRequest) -> [Effect] {
        guard case .running(let running, let owner) = phase, running === task else { return [] }
        (phase, hops, request, body) = (.admitted(owner), 0, fresh, Data())
        return [.forget(task), .cancel(task), .send(fresh, owner)]
    }

    private mutating func redirect(_ task: Task) -> [Effect] {
        if case .running(let running, let owner) = phase, running === task {
            phase = .awaitingRedirectDecision(task, owner)
            return [.decideRedirect(from: request, hop: hops)]
        }
        // Finished: the task's cancel, which must not follow a decision, ends the task.
        return isFinished ? [] : [.answerRedirect(nil)]
    }

    /// Hands back a redirect decision, then a cancel held back meanwhile.
    private mutating func decide(_ task: Task, _ step: RedirectStep) -> [Effect] {
        switch phase {
        case .awaitingRedirectDecision(let waiting, let owner) where waiting === task:
            switch step {
            case .follow(let next):
                (phase, hops, request) = (.running(task, owner), hops + 1, next)
                return [.answerRedirect(next)]
            case .resend(let next):
                // URLSession would drop `next`'s body: a new task sends it; this one ends unheard.
                (phase, hops, request) = (.admitted(owner), hops + 1, next)
                return [.forget(task), .send(next, owner), .answerRedirect(nil)]
            case .stop, .fail:
                phase = .running(task, owner)
                guard case .fail(let error) = step else { return [.answerRedirect(nil)] }
                return [.answerRedirect(nil)] + finish(.failed(error))
            }
        case .cancelAfterRedirectDecision(let waiting) where waiting === task:
            phase = .finished
            return [.answerRedirect(nil), .cancel(task)]
        default:
            return isFinished ? [] : [.answerRedirect(nil)]
        }
    }

    private mutating func end(_ task: Task, _ failure: (any Error)?) -> [Effect] {
        switch phase {
        case .running(let running, let owner) where running === task,
            .awaitingRedirectDecision(let running, let owner) where running === task:
            let outcome: Outcome =
                failure.map { .failed(FetchError.mapping($0, method: method, url: request.url)) }
                ?? .received(body, sent: request)
            (phase, body) = (.finished, Data())
            return [.complete(outcome), .release(owner)]
        case .cancelAfterRedirectDecision(let waiting) where waiting === task:
            phase = .finished
            return []
        default:
            return []
        }
    }

    private mutating func finish(_ outcome: Outcome) -> [Effect] {
        let effects: [Effect]
        switch phase {
        case .admitted(let owner):
            (phase, effects) = (.finished, [.complete(outcome), .release(owner)])
        case .running(let task, let owner):
            (phase, effects) = (.finished, [.complete(outcome), .release(owner), .cancel(task)])
        case .awaitingRedirectDecision(let task, let owner):
            (phase, effects) = (.cancelAfterRedirectDecision(task), [.complete(outcome), .release(owner)])
        case .cancelAfterRedirectDecision, .finished:
            return []
        }
        body = Data()
        return effects
    }
}
