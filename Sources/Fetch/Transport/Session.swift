/// The ``RequestPerforming`` that talks HTTP, over one URLSession for its whole life.
///
/// A `Session` handles what a URLSession user otherwise must (see <doc:SafetyOnLinux>): it validates every request,
/// follows redirects itself without leaking credentials, enforces an overall deadline, bounds bodies in memory,
/// uses ephemeral storage, and calls each completion exactly once, on
/// ``Configuration-swift.struct/completionQueue`` when set, else on its own queues, never the main one.
public final class Session: RequestPerforming {
    /// The version of Fetch, sent in the default `User-Agent`.
    public static let version = "0.1.0"

    /// The settings this session was made with.
    public let configuration: Configuration
    let urlSession: URLSession
    let delegate: SessionDelegate
    let completionQueue: DispatchQueue
    /// Runs a lone request's completion (``LoneCompletionQueue``); `nil` with a configured queue.
    let loneCompletionQueue: LoneCompletionQueue?
    /// Where tasks are made, resumed and cancelled, except while no task of any session is in flight (see `admit`).
    let control = ControlThread()
    let limiter: Locked<OriginLimiter<TaskState>>
    /// Why the configuration cannot be used, checked once: every call fails with it before sending.
    let configurationRefusal: FetchError?
    let deadlines = DeadlineTimer()
    /// Bumped by ``cancelAll()``: a form upload still being encoded stops when it changes.
    let cancelAllCount = Locked(0)
    let cookieJar: CookieJar?

    /// Makes a session with its own URLSession and delegate queue, from `configuration` (safe defaults when omitted).
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, tasksInFlight: .process)
    }

    /// Makes a session whose tasks count in `tasksInFlight` (see `admit`): every session's or a test's own.
    init(
        configuration: Configuration, tasksInFlight: TasksInFlight,
        base settings: URLSessionConfiguration = .ephemeral
    ) {
        self.configuration = configuration
        do {
            try HeaderRules.validate(name: "User-Agent", value: configuration.userAgent)
            try Self.validateAdditionalHeaders(of: settings)
            try Self.refuseUnsupportedSettings(of: nil, configuration)
            configurationRefusal = nil
        } catch {
            configurationRefusal = error as? FetchError ?? FetchError(.invalidRequest, reason: "\(error)")
            // FoundationNetworking stops the process on a header value that is not a string.
            settings.httpAdditionalHeaders = nil
        }
        settings.urlCache = configuration.urlCache
        settings.requestCachePolicy =
            configuration.urlCache == nil ? .reloadIgnoringLocalCacheData : .useProtocolCachePolicy
        // URLSession never touches cookies: Fetch applies RFC 6265 itself (see ``CookieJar``).
        settings.httpCookieStorage = nil
        settings.httpShouldSetCookies = false
        settings.httpCookieAcceptPolicy = .never
        cookieJar = configuration.cookieStorage.map { CookieJar($0) }
        // No credential is ever sent on URLSession's own: a 401 is the caller's response.
        settings.urlCredentialStorage = nil
        let perOrigin = OriginLimiter<TaskState>(
            limit: configuration.maximumConnectionsPerHost, idleTimeout: configuration.idleTimeout)
        limiter = Locked(perOrigin)
        settings.httpMaximumConnectionsPerHost = perOrigin.limit
        settings.timeoutIntervalForRequest = Self.idleSeconds(configuration.idleTimeout)
        // URLSession's default: deadlines are Fetch's own, and Apple platforms cut transfers and streams at this one.
        settings.timeoutIntervalForResource = 7 * 24 * 60 * 60
        delegate = SessionDelegate(tasksInFlight: tasksInFlight)
        urlSession = URLSession(configuration: settings, delegate: delegate, delegateQueue: DeliveryQueue())
        completionQueue =
            configuration.completionQueue
            ?? DispatchQueue(label: "Fetch.Session.completion", attributes: .concurrent)
        loneCompletionQueue = configuration.completionQueue == nil ? LoneCompletionQueue() : nil
    }

    deinit {
        // Nothing can start a task any more; let running ones finish, then release the delegate.
        urlSession.finishTasksAndInvalidate()
        control.stop()
    }

    /// Sends `request` and calls `completion` once with the response, whatever its status, or a ``FetchError``.
    /// - Returns: a handle whose `cancel()` stops the transfer and completes the call
    ///   with ``FetchError/Code-swift.enum/cancelled``.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        if let call = performingOwnEnhancers(of: request, request.options, completion: completion) { return call }
        let handle = CancellationHandle()
        let kindHandler: (any TaskKindHandler)?
        let urlRequest: URLRequest
        let cookies: CallCookies?
        do {
            // Changed in place, unshared: on Linux each change to a shared `URLRequest` copies the whole request.
            var prepared = try prepare(request, options: request.options)
            kindHandler = try self.kindHandler(for: request, sending: &prepared)
            // The first hop's cookies, unless `httpShouldHandleCookies` opts out; URLSession's own are off either way.
            cookies = cookieJar.flatMap { jar in
                prepared.httpShouldHandleCookies ? CallCookies(jar: jar, request: &prepared) : nil
            }
            prepared.httpShouldHandleCookies = false
            urlRequest = prepared
        } catch {
            let named = (error as? FetchError)?.naming(request) ?? error
            queue(for: request.options).async { completion(.failure(named)) }
            return handle
        }
        guard let form = request.body?.streamedForm, let kindHandler = kindHandler as? TransferState,
            let file = kindHandler.uploadFile
        else {
            let bodyFile = request.body?.fileURL
            run(request, urlRequest, cookies: cookies, bodyFile: bodyFile, kindHandler: kindHandler, handle, completion)
            return handle
        }
        // A form with file parts goes from a temporary file (so it has a Content-Length), written chunk by chunk; a
        // cancel of its handle or a `cancelAll` stops it.
        let cancelAllCount = self.cancelAllCount
        let generation = cancelAllCount.withLock { $0 }
        let isCancelled: @Sendable () -> Bool = { handle.isCancelled || cancelAllCount.withLock { $0 } != generation }
        DispatchQueue.global(qos: .utility).async {
            do {
                try form.writeEncoded(to: file, isCancelled: isCancelled)
                if isCancelled() { throw FetchError.cancelled() }
            } catch {
                let named = (error as? FetchError)?.naming(request) ?? error
                kindHandler.close()
                kindHandler.events.async { completion(.failure(named)) }
                return
            }
            self.run(
                request, urlRequest, cookies: cookies, bodyFile: file, kindHandler: kindHandler, handle, completion)
            // A cancelAll between the check above and admission missed this upload: it bumps the count first.
            if isCancelled() { handle.cancel() }
        }
        return handle
    }

    /// What `request`'s kind adds to its task; opens a download's partial file and adds `Range`.
    private func kindHandler(for request: any Request, sending urlRequest: inout URLRequest) throws -> (
        any TaskKindHandler
    )? {
        switch request.options.kind {
        case .stream(let sink):
            sink.deliver(on: queue(for: request.options))
            return sink
        case .download(let transfer), .upload(let transfer):
            return try TransferState(request, transfer, sending: &urlRequest, queue: queue(for: request.options))
        case .plain:
            guard request.body?.isStreamed == true else { return nil }
            return try TransferState(request, nil, sending: &urlRequest, queue: queue(for: request.options))
        }
    }

    /// Admits the call; a transfer or a stream has no session deadline, only its own.
    private func run(
        _ request: any Request, _ urlRequest: URLRequest, cookies: CallCookies?, bodyFile: URL?,
        kindHandler: (any TaskKindHandler)?, _ handle: CancellationHandle,
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        let options = request.options
        let deadline: Duration? =
            switch options.kind {
            case .plain: options.deadline ?? configuration.deadline
            case .download, .upload, .stream: options.deadline
            }
        let state = TaskState(
            owner: self, request: request, urlRequest: urlRequest, cookies: cookies, deadline: deadline,
            bodyFile: bodyFile, kindHandler: kindHandler, completion: completion)
        // Admitted before the handle can cancel it, so that it leaves the limiter after entering.
        admit(state)
        // Weakly: a handle kept after the end keeps nothing of the call.
        handle.setAction { [weak state] in state?.cancelByCaller() }
    }

    /// Sends `urlRequest` in a new task for `state`: a body file, or a transfer's body in memory, in an upload task,
    /// which reports progress; anything else in a data task.
    func send(_ urlRequest: URLRequest, for state: TaskState) {
        // Made only for an upload task: on Linux, changing a shared `URLRequest` copies the whole request.
        var bare: URLRequest {
            var bare = urlRequest
            bare.httpBody = nil
            return bare
        }
        let task: URLSessionTask
        if let file = state.bodyFile, urlRequest.httpMethod != "GET", urlRequest.httpMethod != "HEAD" {
            task = urlSession.uploadTask(with: bare, fromFile: file)
        } else if state.kindHandler?.uploadsBody == true, let body = urlRequest.httpBody {
            task = urlSession.uploadTask(with: bare, from: body)
        } else {
            task = urlSession.dataTask(with: urlRequest)
        }
        delegate.register(task, state)
        state.handle(.started(task))
    }

    /// Whole seconds, at least one, rounded up: FoundationNetworking drops the fraction (0.3 s would fire at once).
    static func idleSeconds(_ timeout: Duration) -> TimeInterval {
        max(1, timeout.seconds.rounded(.up))
    }

    /// Builds and checks the `URLRequest` for `request`, unless a layer above built it.
    func prepare(_ request: any Request, options: RequestOptions) throws -> URLRequest {
        if let refusal = configurationRefusal { throw refusal.naming(request) }
        var urlRequest = try request.attemptURLRequest()
        var fields = urlRequest.allHTTPHeaderFields ?? [:]
        if fields.field(named: "User-Agent") == nil {
            // Set as a whole: on Linux `setValue` capitalizes the name and scans the value.
            fields["User-Agent"] = configuration.userAgent
            urlRequest.allHTTPHeaderFields = fields
        }
        urlRequest.timeoutInterval = Self.idleSeconds(options.idleTimeout ?? configuration.idleTimeout)
        return urlRequest
    }
}

extension Session {
    /// The queue `request`'s completion runs on: its ``RequestOptions/completionQueue``, else
    /// ``Configuration-swift.struct/completionQueue``, else the session's own; a layer answering a call uses it too.
    public func completionQueue(for request: any Request) -> DispatchQueue? {
        queue(for: request.options)
    }

    func queue(for options: RequestOptions) -> DispatchQueue {
        options.completionQueue ?? completionQueue
    }
}
