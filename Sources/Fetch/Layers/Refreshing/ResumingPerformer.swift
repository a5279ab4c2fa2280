/// A performer that, when a call fails in a way its ``ResumableHandler`` recognizes,
/// runs the handler's work and then resends the call once. Made by
/// ``RequestPerforming/resuming(with:)``.
///
/// The work runs once for all the calls that need it at the same time: while it runs,
/// other calls that fail the same way wait for it; a call that was sent before a run
/// succeeded and fails afterwards is resent without another run. When the work fails,
/// every waiting call fails with a ``FetchError/Code-swift.enum/layer`` error that names
/// the handler and the call, with the work's own error as its `underlying` error (find it
/// with `error.thrown(as:)`) and the response that called for the work (the 401) as its
/// ``FetchError/response``, so a ``StatusErrorHandler`` for that status above this layer
/// handles it. A resent call that fails again is delivered
/// as it is: nothing loops. Cancelling a waiting call completes it with
/// ``FetchError/Code-swift.enum/cancelled`` and leaves the work running for the others.
public struct ResumingPerformer: RequestPerforming {
    /// The performer the calls go to.
    package let base: any RequestPerforming
    /// What recognizes the failure and does the work.
    package let handler: any ResumableHandler
    /// The handler's runs, one at a time (under one key) for every call that needs one;
    /// copies of the performer share them.
    private let runs = SingleFlight<Int, Void>()

    /// Performs `request`, running the work and resending once if it fails as the handler says.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let call = LayerCall(request: request, through: base, completion: completion)
        let seen = runs.succeeded
        call.run {
            base.perform(request) { result in resumeIfNeeded(call, after: result, seen: seen) }
        }
        return call
    }

    private func resumeIfNeeded(_ call: LayerCall, after result: Result<Response, any Error>, seen: Int) {
        switch call.request.options.kind {
        case .plain, .upload, .download: break
        case .stream(let sink):
            // A stream whose reader has the head is never sent again (see `StreamSink.hasStarted`).
            if sink.hasStarted { return call.finish(result) }
        }
        guard !call.isFinished, handler.shouldResume(after: result, for: call.request) else {
            return call.finish(result)
        }
        call.request.attemptLog?.received(result)
        let resume: SingleFlight<Int, Void>.Waiter = { outcome, _ in
            switch outcome {
            case .failure(let error): call.answer(.failure(refreshFailed(error, after: result, for: call.request)))
            case .success:
                // A new attempt: built again, so the enhancers below apply the refreshed state.
                call.run {
                    base.perform(call.request.forNextAttempt) { call.finish($0.recordingMetrics { $0.refreshes += 1 }) }
                }
            }
        }
        // A run that succeeded since the call was sent already did the work: resend at once.
        guard let place = runs.join(0, unlessSucceededSince: seen, resume) else { return resume(.success(()), 1) }
        if place.starts { handler.run { [runs] in runs.finish(place, with: $0) } }
    }
}

extension ResumingPerformer {
    /// The error a waiting call gets when the work failed: a ``FetchError/Code-swift.enum/layer``
    /// error naming the handler and the call it was for, carrying the work's own error
    /// (a refresh call's `FetchError` with its own URL and status, say) as `underlying`, and
    /// the response that called for the work (`result`'s, delivered or carried by its error)
    /// as `response`, so that its status is the error's ``FetchError/status``.
    private func refreshFailed(
        _ error: any Error, after result: Result<Response, any Error>, for request: any Request
    ) -> FetchError {
        let response = result.response
        let (method, url) = request.target(through: self)
        return FetchError(
            .layer, reason: "\(handler.name) failed, so the call was not resent: \(FetchError.summary(of: error))",
            method: method, url: response?.urlRequest.url ?? url, response: response, underlying: error,
            layer: handler.name)
    }
}

extension RequestPerforming {
    /// This performer, running `handler`'s work after a failure it recognizes and then
    /// resending the call once.
    ///
    /// ```swift
    /// let api = Session()
    ///     .enhanced(by: BearerToken(store))
    ///     .resuming(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
    /// ```
    /// Put it above the enhancers that apply the new state, so the resent request goes
    /// through them again.
    /// - Returns: the resuming performer.
    public func resuming(with handler: any ResumableHandler) -> ResumingPerformer {
        ResumingPerformer(base: self, handler: handler)
    }
}
