import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Everything `Session` tracks for one request, from the moment it is admitted (queued or
/// started) to the completion. A request usually runs as one URLSession task; a redirect
/// that must resend a body runs the next hop as a new task (see ``SessionDelegate``).
final class TaskState: @unchecked Sendable, OriginLimited, DeadlineTracked {
    // `lock` guards every `var` below but two: `originPlace` is guarded by the lock of the
    // session's limiter, `deadlineIndex` by the lock of the ``DeadlineTimer``; the `let`s
    // are immutable and Sendable.
    private let lock = NSLockShim()
    let request: any Request
    /// The origin the request started on: it holds a slot there until it finishes.
    let origin: Origin?
    /// The overall deadline; `nil` for none.
    let deadline: Duration?
    /// The transfer this request carries (a download or an upload); `nil` for `perform`.
    let transfer: TransferState?
    let maximumBodySize: Int
    let redirectPolicy: RedirectPolicy
    let sensitiveHeaders: Set<String>
    /// The file an upload sends as its body, so a 307/308 can send it again; `nil` otherwise.
    let bodyFile: URL?
    private let completion: @Sendable (Result<Response, any Error>) -> Void
    private let queue: DispatchQueue
    /// The session's queue for calls into URLSession tasks (see `Session`).
    private let control: DispatchQueue

    private var currentRequest: URLRequest
    private var body = Data()
    private var hops = 0
    private var finished = false
    /// Guarded by the session limiter's lock (see ``OriginLimited``).
    var originPlace = OriginPlace.new
    /// Guarded by the deadline timer's lock (see ``DeadlineTracked``).
    var deadlineIndex: Int?
    /// The task carrying the request now; `nil` once finished.
    private var task: URLSessionTask?
    /// URLSession waits for this request's redirect decision (see ``beginRedirect()``).
    private var redirectPending = false
    /// The task to cancel once the pending redirect decision has been handed back.
    private var cancelAfterRedirect: URLSessionTask?
    /// The session, kept alive while the request runs: a redirect may have to start a new
    /// task on its URLSession, which must not have been invalidated by then. `nil` once finished.
    private var owner: Session?

    init(owner: Session, control: DispatchQueue, request: any Request, urlRequest: URLRequest,
         maximumBodySize: Int, redirectPolicy: RedirectPolicy, sensitiveHeaders: Set<String>,
         deadline: Duration?, bodyFile: URL?, transfer: TransferState?, queue: DispatchQueue,
         completion: @escaping @Sendable (Result<Response, any Error>) -> Void) {
        self.owner = owner
        origin = Origin(urlRequest.url)
        self.deadline = deadline
        self.transfer = transfer
        self.control = control
        self.request = request
        self.currentRequest = urlRequest
        self.maximumBodySize = maximumBodySize
        self.redirectPolicy = redirectPolicy
        self.sensitiveHeaders = sensitiveHeaders
        self.bodyFile = bodyFile
        self.queue = queue
        self.completion = completion
    }

    var method: HTTPMethod { HTTPMethod(rawValue: lock.withLock { currentRequest.httpMethod } ?? "GET") }
    var url: URL? { lock.withLock { currentRequest.url } }
    /// The request as it is sent now: the first one until a redirect.
    var urlRequest: URLRequest { lock.withLock { currentRequest } }

    /// Makes a ``FetchError`` that names the request as it is now.
    func error(_ code: FetchError.Code, _ reason: String) -> FetchError {
        FetchError(code, reason: reason, method: method, url: url)
    }

    /// Starts counting the deadline, if there is one: the request fails with
    /// `deadlineExceeded` once it has passed, queued or running.
    func startDeadline() {
        if let deadline { DeadlineTimer.shared.add(self, after: deadline) }
    }

    /// Fails the request because its deadline has passed; called by the ``DeadlineTimer``.
    func deadlineExpired() {
        let what = transfer == nil ? "response" : "transfer"
        fail(error(.deadlineExceeded, "no complete \(what) within the deadline of \((deadline ?? .zero).seconds) s"))
    }

    /// Makes `task` the one carrying the request.
    /// - Returns: `false` when the request has already finished; the caller cancels `task`.
    func attach(_ task: URLSessionTask) -> Bool {
        lock.withLock {
            guard !finished else { return false }
            self.task = task
            return true
        }
    }

    /// The session while the request runs, to start the next task of a redirect on; `nil`
    /// once the request has finished.
    var runningOwner: Session? { lock.withLock { owner } }

    /// Calls the completion, the first time only; later calls do nothing.
    func finish(_ result: Result<Response, any Error>) {
        _ = settle(result)
    }

    /// Fails the request with `error`, unless it has finished already, and stops its transfer
    /// from the session's control queue, so the calling thread never waits for URLSession.
    func fail(_ error: FetchError) {
        guard let task = settle(.failure(error)) else { return }
        control.async { task.cancel() }
    }

    /// Fails the request with `error`, unless it has finished already, and stops its transfer
    /// at once. Only for URLSession's delegate queue: cancelling from there needs no other
    /// thread, while a fast transfer can keep Dispatch's few worker threads so busy that a
    /// queued cancel waits seconds and lets hundreds of MB more arrive.
    func failFromDelegate(_ error: FetchError) {
        guard let task = settle(.failure(error)) else { return }
        DeliveryQueue.unblocked { task.cancel() }
    }

    /// Calls the completion the first time and releases what the request held: its body,
    /// its deadline, its slot on its origin (which starts the next queued request).
    /// - Returns: the task that was carrying the request, the first time only.
    private func settle(_ result: Result<Response, any Error>) -> URLSessionTask? {
        let (first, task, owner): (Bool, URLSessionTask?, Session?) = lock.withLock {
            guard !finished else { return (false, nil, nil) }
            finished = true
            body = Data()
            defer {
                self.task = nil
                self.owner = nil
            }
            // Not while URLSession waits for a redirect decision: see `beginRedirect()`.
            if redirectPending {
                cancelAfterRedirect = self.task
                return (true, nil, self.owner)
            }
            return (true, self.task, self.owner)
        }
        guard first else { return nil }
        if deadline != nil { DeadlineTimer.shared.remove(self) }
        owner?.release(self)
        let completion = self.completion
        queue.async { completion(result) }
        return task
    }

    /// Notes that URLSession waits for this request's redirect decision. Until
    /// ``endRedirect()``, a cancel is held back: FoundationNetworking crashes the process
    /// ("Received callback for HTTP redirection, but we're not waiting for it") when a task
    /// is cancelled while its redirect decision is pending and the decision comes after.
    /// - Returns: `false` when the request has finished already: its task's cancel may be
    ///   on its way, so the decision must not be handed back at all (the cancel ends the task).
    func beginRedirect() -> Bool {
        lock.withLock {
            guard !finished else { return false }
            redirectPending = true
            return true
        }
    }

    /// Notes that the redirect decision was handed back to URLSession.
    /// - Returns: the task to cancel now, when the request finished meanwhile. Its cancel
    ///   reaches URLSession's work queue after the decision, so the two cannot cross.
    func endRedirect() -> URLSessionTask? {
        lock.withLock {
            redirectPending = false
            defer { cancelAfterRedirect = nil }
            return cancelAfterRedirect
        }
    }

    /// Checks the length `response` announces against the limit and makes room for the body.
    /// A response to HEAD, a 204 and a 304 have no body whatever their Content-Length says.
    /// - Returns: `false` when the body is already known to be too large.
    func receive(_ response: URLResponse) -> Bool {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        guard method != .head, status != 204, status != 304 else { return true }
        let expectedLength = response.expectedContentLength
        if expectedLength > Int64(maximumBodySize) { return false }
        if expectedLength > 0 { lock.withLock { body.reserveCapacity(Int(expectedLength)) } }
        return true
    }

    /// Appends bytes to the body; bytes arriving after the request finished are dropped.
    /// - Returns: `false` when the body has grown past the limit.
    func append(_ data: Data) -> Bool {
        lock.withLock {
            guard !finished else { return true }
            guard body.count + data.count <= maximumBodySize else { return false }
            body.append(data)
            return true
        }
    }

    /// Completes with the response built from what was received.
    func complete(with urlResponse: URLResponse?) {
        guard let http = urlResponse as? HTTPURLResponse else {
            finish(.failure(error(.badServerResponse, "the reply was not an HTTP response")))
            return
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers.add(String(describing: name), String(describing: value))
        }
        let (sent, received): (URLRequest, Data) = lock.withLock {
            defer { body = Data() }
            return (currentRequest, body)
        }
        let response = Response(
            request: request, urlRequest: sent, status: http.statusCode, headers: headers,
            body: received, url: http.url ?? sent.url
        )
        finish(.success(response))
    }

    /// What to do with a redirect.
    enum RedirectStep {
        /// Hand the request back to URLSession, which sends it on the same task.
        case follow(URLRequest)
        /// Send the request as a new task: URLSession drops the body of a request handed
        /// back from the redirect delegate (it sends `Content-Length: 0`).
        case resend(URLRequest)
        /// Do not follow: the 3xx response is the result.
        case stop
        case fail(FetchError)
    }

    /// Decides a redirect from `response`, reading `Location` itself: URLSession on Linux
    /// turns a `file://` location into a path on the same origin. The redirect policy is
    /// asked without the lock held, so it may do anything, cancelling this request included.
    func redirect(_ response: HTTPURLResponse) -> RedirectStep {
        let (current, hop): (URLRequest, Int) = lock.withLock { (currentRequest, hops) }
        let method = HTTPMethod(rawValue: current.httpMethod ?? "GET")
        func fail(_ code: FetchError.Code, _ reason: String) -> RedirectStep {
            .fail(FetchError(code, reason: reason, method: method, url: current.url))
        }
        guard let location = response.value(forHTTPHeaderField: "Location"),
              let target = URL(string: location, relativeTo: response.url ?? current.url)?.absoluteURL
        else { return fail(.redirectRefused, "redirect \(response.statusCode) without a usable Location") }
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return fail(.redirectRefused, "redirect to \(target.absoluteString) refused: only http and https are followed")
        }
        let next = RedirectPolicy.nextRequest(
            after: current, to: target, status: response.statusCode, sensitiveHeaders: sensitiveHeaders
        )
        let chosen: URLRequest
        switch redirectPolicy.decide(RedirectPolicy.Hop(from: current, to: next, status: response.statusCode, index: hop)) {
        case .stop: return .stop
        case .refuse: return fail(.redirectRefused, "redirect to \(target.absoluteString) refused by the policy")
        case .follow: chosen = next
        case .followWith(let custom):
            do { try HeaderRules.validate(custom) } catch let error as FetchError { return .fail(error) } catch {
                return fail(.redirectRefused, "\(error)")
            }
            chosen = custom
        }
        // After the policy, so that a policy that stops (such as `.never`) returns the 3xx.
        guard hop < redirectPolicy.maximumHops else {
            return fail(.tooManyRedirects, "more than \(redirectPolicy.maximumHops) redirects")
        }
        if chosen.httpBodyStream != nil {
            return fail(.redirectRefused, "redirect \(response.statusCode) refused: a streamed body cannot be sent again")
        }
        // A hop that keeps the method keeps the body (307, 308, and 301/302 of a PUT).
        let keepsFileBody = bodyFile != nil && chosen.httpMethod == current.httpMethod
            && method != .get && method != .head
        let committed: Bool = lock.withLock {
            // Finished (cancelled, timed out) while the policy decided: follow nothing.
            guard !finished, hops == hop else { return false }
            hops += 1
            currentRequest = chosen
            return true
        }
        guard committed else { return .stop }
        return chosen.httpBody?.isEmpty == false || keepsFileBody ? .resend(chosen) : .follow(chosen)
    }
}
