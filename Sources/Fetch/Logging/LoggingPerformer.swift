/// A performer that writes one entry per call to a ``LogConfiguration``'s sink when the
/// call ends. Made by ``RequestPerforming/logging(_:)``.
///
/// The entry describes what was sent (`response.urlRequest`, after every layer below) and
/// what came back, with sensitive values hidden. A call that failed with a ``FetchError``
/// carrying a ``FetchError/response`` (a status a layer below rejected) is described from
/// that response, headers and bodies included as the options ask; URLs quoted in an
/// error's reason are redacted like the request's. A call with no options to log (see
/// ``RequestOptions/logOptions``) costs nothing more than the options lookup.
public struct LoggingPerformer: RequestPerforming {
    /// The performer the calls go to.
    public let base: any RequestPerforming
    /// How to log.
    public let configuration: LogConfiguration

    /// Wraps `base`.
    public init(base: any RequestPerforming, configuration: LogConfiguration) {
        self.base = base
        self.configuration = configuration
    }

    /// Performs `request` and logs it when it ends.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let options = request.options.logOptions ?? configuration.options
        guard !options.isEmpty else { return base.perform(request, completion: completion) }
        let started = options.contains(.time) ? configuration.clock() : nil
        return base.perform(request) { [configuration] result in
            let duration = started.map { configuration.clock() - $0 }
            configuration.sink(LogFormatter(configuration: configuration, options: options)
                .event(for: request, result: result, duration: duration))
            completion(result)
        }
    }
}

extension RequestPerforming {
    /// This performer, logging every call as `configuration` says.
    ///
    /// ```swift
    /// let api = Session().logging(.default)
    /// ```
    /// - Returns: the logging performer.
    public func logging(_ configuration: LogConfiguration) -> LoggingPerformer {
        LoggingPerformer(base: self, configuration: configuration)
    }
}
