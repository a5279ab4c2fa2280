/// One entry per call, about its last attempt's `URLRequest`; a download's or a stream's body is not read back.
struct LoggingLayer: StandingAside {
    let configuration: LogConfiguration

    func standsAside(for request: any Request) -> Bool {
        (request.options.logOptions ?? configuration.options).isEmpty
    }

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let options = request.options.logOptions ?? configuration.options
        let started = options.contains(.time) ? configuration.clock() : nil
        let formatter = LogFormatter(configuration: configuration, options: options)
        let log = AttemptLog { [configuration] attempt, number in
            guard options.contains(.attempts) else { return }
            configuration.sink(formatter.event(forAttempt: attempt, number: number, of: request))
        }
        return next.perform(LayeredRequest(request, log: log)) { [configuration] result in
            let duration = started.map { configuration.clock() - $0 }
            configuration.sink(formatter.event(for: request, result: result, duration: duration, last: log.last))
            completion(result)
        }
    }
}

extension RequestPerforming {
    /// This performer, logging every call as `configuration` says.
    public func logging(_ configuration: LogConfiguration) -> LayeredPerformer {
        layered(LoggingLayer(configuration: configuration))
    }
}

extension RequestOptions {
    private enum LogOptionsKey: RequestOptionKey { static let defaultValue: LogOptions? = nil }

    /// What the logging layer writes about this call in place of its configured options (`.all`
    /// to see everything, `.none` to keep it out of the log); `nil`, the default, keeps those.
    public var logOptions: LogOptions? {
        get { self[LogOptionsKey.self] }
        set { self[LogOptionsKey.self] = newValue }
    }
}
