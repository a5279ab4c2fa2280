import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ``RequestPerforming`` that talks HTTP, over one URLSession for its whole life.
///
/// ```swift
/// let session = Session()
/// let user = try await session.perform(GetUser(id: 7))
/// ```
///
/// A `Session` handles what a URLSession user otherwise must (see the README's "Safety on
/// Linux"): it validates every request before sending it, follows redirects itself without
/// leaking credentials, enforces an overall deadline, bounds bodies in memory, uses
/// ephemeral storage, and calls completions on its own queues, never the main one.
/// Completions are called exactly once, on ``Configuration-swift.struct/completionQueue``
/// when one is set.
///
/// A session runs at most ``Configuration-swift.struct/maximumConnectionsPerHost`` requests
/// at once per origin (scheme, host and port), 4 by default, and queues the others in the
/// order they came; see that setting for why.
public final class Session: RequestPerforming {
    /// The version of Fetch, sent in the default `User-Agent`.
    public static let version = "0.1.0"

    /// The settings this session was made with.
    public let configuration: Configuration
    let urlSession: URLSession
    let delegate: SessionDelegate
    let completionQueue: DispatchQueue
    /// Where a lone request's completion runs when no completion queue is configured (see
    /// ``SoloLane``); `nil` with a configured one, which every completion then uses.
    let soloLane: SoloLane?
    /// Where tasks are made, resumed and cancelled while other requests run. On Linux
    /// `resume()` and `cancel()` wait for the URLSession's work queue, which a fast transfer
    /// keeps busy: called on callers' threads, they would tie up Dispatch and cooperative
    /// threads and stall unrelated requests for seconds. Here one thread per session waits (see
    /// ``ControlThread``), and every task is made there, except while no task of any session
    /// is in flight (see `admit`).
    let control = ControlThread(name: "Fetch.Session.control")
    /// The requests running and queued per origin (Session+Limiting.swift).
    let limiter: Locked<OriginLimiter<TaskState>>
    /// Why the configured User-Agent, or a header field of the caller's
    /// `URLSessionConfiguration`, cannot be sent, or which setting of the configuration this
    /// platform cannot honour, checked once; every request fails with this error.
    let userAgentError: FetchError?
    /// Fails the requests whose overall deadline has passed.
    let deadlines = DeadlineTimer()
    /// How many times ``cancelAll()`` was called: a form upload still being written to its
    /// temporary file, which has no task state yet, stops when this changes.
    let cancelAllCount = Locked(0)
    /// The cookie store, read and written by Fetch's rules; `nil` without one.
    let cookieJar: CookieJar?

    /// Makes a session with its own URLSession and delegate queue.
    /// - Parameter configuration: the settings; safe defaults when omitted.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, tasksInFlight: .process)
    }

    /// Makes a session whose tasks count in `tasksInFlight`, which tells whether a request
    /// may start on its caller's thread (see `admit`): every session's count, or a test's own.
    init(
        configuration: Configuration, tasksInFlight: TasksInFlight,
        base settings: URLSessionConfiguration = .ephemeral
    ) {
        self.configuration = configuration
        do {
            try HeaderRules.validate(name: "User-Agent", value: configuration.userAgent)
            try Self.validateAdditionalHeaders(of: settings)
            try Self.refuseUnsupportedSettings(of: nil, configuration)
            userAgentError = nil
        } catch {
            userAgentError = error as? FetchError ?? FetchError(.invalidRequest, reason: "\(error)")
            // Every request fails with that error; and FoundationNetworking stops the process
            // on a header value that is not a string.
            settings.httpAdditionalHeaders = nil
        }
        settings.urlCache = configuration.urlCache
        settings.requestCachePolicy =
            configuration.urlCache == nil ? .reloadIgnoringLocalCacheData : .useProtocolCachePolicy
        // URLSession never touches cookies: with a store, Fetch reads and writes it on every
        // hop by RFC 6265's rules (see ``CookieJar``), which URLSession's do not follow.
        settings.httpCookieStorage = nil
        settings.httpShouldSetCookies = false
        settings.httpCookieAcceptPolicy = .never
        cookieJar = configuration.cookieStorage.map { CookieJar($0) }
        // No credential is ever sent on URLSession's own: a 401 is the caller's response.
        settings.urlCredentialStorage = nil
        let perOrigin = OriginLimiter<TaskState>(limit: configuration.maximumConnectionsPerHost)
        limiter = Locked(perOrigin)
        settings.httpMaximumConnectionsPerHost = perOrigin.limit
        settings.timeoutIntervalForRequest = Self.idleSeconds(configuration.idleTimeout)
        // Deadlines are Fetch's own (the deadline timer), per request, and transfers and
        // streams have none; Apple platforms enforce the resource timeout, which would cut
        // them, so it stays at URLSession's default of seven days (Linux ignores it).
        settings.timeoutIntervalForResource = 7 * 24 * 60 * 60
        let queue = DeliveryQueue()
        queue.name = "Fetch.Session.delegate"
        delegate = SessionDelegate(tasksInFlight: tasksInFlight)
        urlSession = URLSession(configuration: settings, delegate: delegate, delegateQueue: queue)
        completionQueue =
            configuration.completionQueue
            ?? DispatchQueue(label: "Fetch.Session.completion", attributes: .concurrent)
        soloLane = configuration.completionQueue == nil ? SoloLane() : nil
    }

    deinit {
        // Nothing can start a task any more; let running ones finish, then release the delegate.
        urlSession.finishTasksAndInvalidate()
        control.stop()
    }

    /// Sends `request` and calls `completion` once with the response, whatever its status,
    /// or a ``FetchError``.
    /// - Returns: a handle whose `cancel()` stops the transfer and completes the call
    ///   with ``FetchError/Code-swift.enum/cancelled``.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let options = request.options
        if let call = performingOwnEnhancers(of: request, options, completion: completion) { return call }
        switch options.kind {
        case .stream(let sink):
            // The body goes to its sink as it arrives (Session+Streams.swift).
            return performStream(request, options: options, sink: sink, completion: completion)
        case .download(let transfer), .upload(let transfer):
            // The body goes to or comes from a file, with progress (Session+Transfers.swift).
            return performTransfer(request, options: options, transfer: transfer, completion: completion)
        case .plain:
            // A body streamed from files is sent as an upload is, without progress.
            if request.body?.isStreamed == true {
                return performTransfer(request, options: options, transfer: nil, completion: completion)
            }
        }
        guard let urlRequest = prepare(request, options: options, failing: completion) else {
            return CancellationHandle()
        }
        let state = taskState(
            for: request, urlRequest, options: options, deadline: options.deadline ?? configuration.deadline,
            completion: completion
        )
        admit(state)
        return state.cancellingHandle
    }

    /// Makes the state of one request with the session's settings and the request's options.
    func taskState(
        for request: any Request, _ urlRequest: URLRequest, options: RequestOptions, deadline: Duration?,
        bodyFile: URL? = nil, transfer: TransferState? = nil, stream: StreamState? = nil,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> TaskState {
        // The first hop's cookies: the caller's `Cookie` and the store's, unless the request
        // opts out with `httpShouldHandleCookies` (see ``CallCookies``).
        var urlRequest = urlRequest
        let cookies = cookieJar.flatMap { jar in
            urlRequest.httpShouldHandleCookies ? CallCookies(jar: jar, request: &urlRequest) : nil
        }
        urlRequest.httpShouldHandleCookies = false
        return TaskState(
            owner: self, request: request, urlRequest: urlRequest, cookies: cookies,
            maximumBodySize: options.maximumBodySize ?? configuration.maximumBodySize,
            redirectPolicy: options.redirectPolicy ?? configuration.redirectPolicy,
            sensitiveHeaders: configuration.sensitiveHeaders.union(options.sensitiveHeaders),
            deadline: deadline, bodyFile: bodyFile, transfer: transfer, stream: stream, completion: completion
        )
    }

    /// Sends `urlRequest` as a new task carrying `state`'s request: the first one, or a
    /// redirect hop that URLSession would send without its body. On the control thread,
    /// which may wait for URLSession's work queue, or on the caller's while no task of any
    /// session is in flight (see `admit`).
    func send(_ urlRequest: URLRequest, for state: TaskState) {
        let task: URLSessionTask
        if let file = state.bodyFile, urlRequest.httpMethod != "GET", urlRequest.httpMethod != "HEAD" {
            task = urlSession.uploadTask(with: urlRequest, fromFile: file)
        } else {
            task = urlSession.dataTask(with: urlRequest)
        }
        run(task, for: state)
    }

    /// Makes `task` the one carrying `state` (and its transfer, if any) and resumes it; when
    /// the request has finished (cancelled, deadline) the task is forgotten and cancelled at once.
    func run(_ task: URLSessionTask, for state: TaskState) {
        delegate.register(task, state)
        state.handle(.started(task), .control)
    }

    /// An idle timeout as URLSession should be given it: whole seconds, at least one.
    /// FoundationNetworking drops the fraction (0.3 s fires at once, 1.5 s after 1 s), so
    /// Fetch rounds up: an idle timeout never fires earlier than asked.
    static func idleSeconds(_ timeout: Duration) -> TimeInterval {
        max(1, timeout.seconds.rounded(.up))
    }

    /// The checked `URLRequest` for `request`, or `nil` after failing `completion` with why not.
    func prepare(
        _ request: any Request, options: RequestOptions,
        failing completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> URLRequest? {
        do {
            return try prepare(request, options: options)
        } catch {
            queue(for: options).async { completion(.failure(error)) }
            return nil
        }
    }

    /// Builds and checks the `URLRequest` for `request`, unless a layer above built it for
    /// this attempt.
    func prepare(_ request: any Request, options: RequestOptions) throws -> URLRequest {
        var urlRequest = try request.attemptURLRequest()
        var fields = urlRequest.allHTTPHeaderFields ?? [:]
        if !fields.keys.contains(where: { $0.caseInsensitiveEquals("User-Agent") }) {
            // Checked for CR and LF once, in `init`. Added to the fields as a whole: on Linux
            // `setValue` capitalizes the name and scans the value, 10,000 instructions a call.
            if let error = userAgentError { throw error.naming(request) }
            fields["User-Agent"] = configuration.userAgent
            urlRequest.allHTTPHeaderFields = fields
        }
        urlRequest.timeoutInterval = Self.idleSeconds(options.idleTimeout ?? configuration.idleTimeout)
        return urlRequest
    }
}
