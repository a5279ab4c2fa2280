/// The layer that writes one entry per call to a ``LogConfiguration``'s sink when the call
/// ends. Made by ``RequestPerforming/logging(_:)``.
///
/// The entry describes what was sent (the `URLRequest` of the last attempt, after every
/// layer below, so with the absolute URL) and what came back, with sensitive values hidden.
/// A call that failed with a ``FetchError`` carrying a ``FetchError/response`` (a status a
/// layer below rejected) is described from that response, headers and bodies included as
/// the options ask; a call whose error an error handler below replaced names the status (or
/// error) that came, then the error delivered; URLs quoted in an error's reason are
/// redacted like the request's. With ``LogOptions/attempts``, every attempt that another
/// followed (a retry, a resend after a refresh, a request a post-request hook sent) gets a
/// line of its own when the next one is sent. The response body of a download is logged as
/// written to a file, a stream's as streamed to its reader (neither is read back). A call
/// with no options to log (see ``RequestOptions/logOptions``) costs nothing more than the
/// options lookup.
struct LoggingLayer: StandingAside {
    /// How to log.
    let configuration: LogConfiguration

    func standsAside(for request: any Request) -> Bool {
        (request.options.logOptions ?? configuration.options).isEmpty
    }

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let options = request.options.logOptions ?? configuration.options
        guard !options.isEmpty else { return next.perform(request, completion: completion) }
        let started = options.contains(.time) ? configuration.clock() : nil
        let formatter = LogFormatter(configuration: configuration, options: options)
        let log = AttemptLog { [configuration] attempt, number in
            guard options.contains(.attempts) else { return }
            configuration.sink(formatter.event(forAttempt: attempt, number: number, of: request))
        }
        return next.perform(LayeredRequest(request, log: log)) { [configuration] result in
            let duration = started.map { configuration.clock() - $0 }
            configuration.sink(formatter.event(for: request, result: result, duration: duration, attempts: log.all))
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
    public func logging(_ configuration: LogConfiguration) -> LayeredPerformer {
        layered(LoggingLayer(configuration: configuration))
    }
}
