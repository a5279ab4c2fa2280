struct LogFormatter {
    let configuration: LogConfiguration
    let options: LogOptions

    private var redaction: Redaction { configuration.redaction }

    func event(
        for request: any Request, result: Result<Response, any Error>, duration: Duration?, last: AttemptLog.Attempt?
    ) -> LogEvent {
        let result = request.options.droppedHandle?.explaining(result) ?? result
        let streamed: [String]?
        switch request.options.kind {
        case .plain, .upload, .download: streamed = nil
        case .stream(let sink):
            streamed = streamLines(for: request, of: sink, result: result, duration: duration, sent: last?.sent)
        }
        var came = result
        var outcome = self.outcome(of: result)
        // An error handler below replaced what came (a status or another error) with the error delivered.
        if case .failure = result, let replaced = last?.replaced {
            came = replaced
            outcome = self.outcome(of: replaced) + ", replaced by " + outcome
        }
        let error: FetchError? = if case .failure(let failure) = came { failure as? FetchError } else { nil }
        // A response an error carries counts too: a status a layer below rejected.
        let lines =
            streamed ?? came.response.map { describe($0, of: request, outcome: outcome, duration: duration) }
            ?? [summary(of: last?.sent, naming: error, for: request, outcome: outcome, duration: duration)]
        let level: LogEvent.Level = if case .failure = result { .error } else { .info }
        return LogEvent(level: level, message: lines.joined(separator: "\n"), request: request, duration: duration)
    }

    /// `nil` when the reader got no head (the call failed first, or it was refused).
    private func streamLines(
        for request: any Request, of sink: StreamSink, result: Result<Response, any Error>, duration: Duration?,
        sent: URLRequest?
    ) -> [String]? {
        let stream = sink.machine.withLock { $0 }
        let (received, dropped) = (stream.received, request.options.droppedHandle?.note)
        let outcome: String
        var response: Response
        switch (result, stream.head, dropped) {
        case (.success(let final), let head, _):
            // A performer that does not stream hands the head and the whole body over at the end.
            guard let head = head ?? (final.isSuccess || stream.acceptsAnyStatus ? final : nil) else { return nil }
            (response, outcome) = (head, "stream ended after \(bytes(received + final.body.count))")
            response.urlRequest = final.urlRequest
        case (.failure, let head?, let note?):
            (response, outcome) = (head, "stream cancelled: handle dropped: \(note) (\(received) received)")
        case (.failure, let head?, nil) where stream.stoppedByReader:
            let read = bytes(stream.read)
            (response, outcome) = (head, "stream stopped by its reader after \(read) read (\(received) received)")
        case (.failure(let error), let head?, nil):
            (response, outcome) = (head, "stream failed after \(bytes(received)): \(describe(error))")
        case (.failure, nil, _): return nil
        }
        if case .failure = result, let sent { response.urlRequest = sent }
        return describe(response, of: request, outcome: "\(response.status), " + outcome, duration: duration)
    }

    private func bytes(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }

    func event(forAttempt attempt: AttemptLog.Attempt, number: Int, of request: any Request) -> LogEvent {
        let level: LogEvent.Level =
            switch attempt.result {
            case .success(let response)?: response.status >= 400 ? .error : .info
            case .failure?: .error
            case nil: .info
            }
        let outcome = attempt.result.map(outcome(of:)) ?? "no result seen"
        let line =
            summary(of: attempt.sent, for: request, outcome: outcome, duration: nil)
            + " (attempt \(number), sent again)"
        return LogEvent(level: level, message: line, request: request, duration: nil)
    }

    private func outcome(of result: Result<Response, any Error>) -> String {
        switch result {
        case .success(let response): "\(response.status)"
        case .failure(let error): describe(error)
        }
    }

    private func describe(_ error: any Error) -> String {
        redaction.redactingURLs(in: (error as? FetchError).map { "\($0.code.rawValue): \($0.reason)" } ?? "\(error)")
    }

    private func describe(_ response: Response, of request: any Request, outcome: String, duration: Duration?)
        -> [String]
    {
        let sent = response.urlRequest
        var lines = [summary(of: sent, for: request, outcome: outcome, duration: duration)]
        if options.contains(.requestHeaders) { lines += redaction.headerLines(of: sent).map { "> " + $0 } }
        if options.contains(.requestBody), let body = sent.httpBody, !body.isEmpty {
            let shown = redaction.body(body, contentType: sent.value(forHTTPHeaderField: "Content-Type"))
            lines.append("> " + shown.preview(limit: configuration.bodyLimit))
        }
        if options.contains(.responseHeaders) { lines += redaction.headerLines(of: response.headers).map { "< " + $0 } }
        if options.contains(.responseBody) {
            let body =
                response.body.isEmpty ? nil : response.bodyPreview(limit: configuration.bodyLimit, redaction: redaction)
            switch request.options.kind {
            case .plain, .upload:
                if let body { lines.append("< " + body) }
            case .download:
                // Unless a layer answered with the body in memory, it went to a file.
                lines.append(body.map { "< " + $0 } ?? "< (body written to a file)")
            case .stream:
                lines.append("< (body streamed to the reader)")
            }
        }
        if options.contains(.curl) { lines.append(sent.curlDescription(redaction: redaction)) }
        if options.contains(.metrics) { lines.append("  metrics: \(response.metrics)") }
        return lines
    }

    /// The summary line for what was `sent`; while nothing was, for the call as `error` or the request names it.
    private func summary(
        of sent: URLRequest?, naming error: FetchError? = nil, for request: any Request, outcome: String,
        duration: Duration?
    ) -> String {
        var parts: [String] = []
        if options.contains(.method) { parts.append(sent?.httpMethod ?? (error?.method ?? request.method).rawValue) }
        if options.contains(.url) { parts.append(redaction.string(for: sent?.url ?? error?.url ?? request.url)) }
        if options.contains(.status) { parts.append("-> " + outcome) }
        if let duration { parts.append("(\(ResponseMetrics.milliseconds(duration)) ms)") }
        return parts.joined(separator: " ")
    }
}
