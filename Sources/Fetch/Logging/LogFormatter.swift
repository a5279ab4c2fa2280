/// Writes the text of one log entry.
struct LogFormatter {
    let configuration: LogConfiguration
    let options: LogOptions

    private var redaction: Redaction { configuration.redaction }

    /// The entry for a call that ended with `result`, after `attempts`.
    func event(
        for request: any Request, result: Result<Response, any Error>, duration: Duration?,
        attempts: [AttemptLog.Attempt] = []
    ) -> LogEvent {
        // A call cancelled because its handle was dropped says so.
        let result = request.options.droppedHandle?.explaining(result) ?? result
        switch request.options.kind {
        case .plain, .upload, .download: break
        case .stream(let sink):
            if let event = streamEvent(
                for: request, of: sink, result: result, duration: duration, sent: attempts.last?.sent)
            {
                return event
            }
        }
        switch result {
        case .success(let response):
            let lines = describe(response, of: request, outcome: "\(response.status)", duration: duration)
            return LogEvent(level: .info, message: lines.joined(separator: "\n"), request: request, duration: duration)
        case .failure(let error):
            let failure = describe(error)
            let last = attempts.last
            let lines: [String]
            // An error handler below replaced what came (a status or another error) with `error`.
            switch last?.replaced {
            case .success(let replaced)?:
                let outcome = "\(replaced.status), replaced by \(failure)"
                lines = describe(replaced, of: request, outcome: outcome, duration: duration)
            case .failure(let replaced)?:
                let outcome = describe(replaced) + ", replaced by " + failure
                lines = describe(replaced, outcome: outcome, sent: last?.sent, of: request, duration: duration)
            case nil:
                lines = describe(error, outcome: failure, sent: last?.sent, of: request, duration: duration)
            }
            return LogEvent(level: .error, message: lines.joined(separator: "\n"), request: request, duration: duration)
        }
    }

    /// The entry for a streamed call whose reader got the head: that head, then how the
    /// stream ended and how many bytes it carried; `nil` for any other call.
    private func streamEvent(
        for request: any Request, of sink: StreamSink, result: Result<Response, any Error>, duration: Duration?,
        sent: URLRequest?
    ) -> LogEvent? {
        var tally = sink.tally
        tally.droppedNote = request.options.droppedHandle?.note
        guard let (head, outcome) = tally.outcome(of: result, describe: describe(_:)) else { return nil }
        var response = head
        var level = LogEvent.Level.error
        if case .success(let final) = result {
            response.urlRequest = final.urlRequest
            level = .info
        } else if let sent {
            response.urlRequest = sent
        }
        let lines = describe(response, of: request, outcome: outcome, duration: duration)
        return LogEvent(level: level, message: lines.joined(separator: "\n"), request: request, duration: duration)
    }

    /// The lines for a call that failed with `error`, written as `outcome`: from the response
    /// it carries (a status a layer below rejected), else the summary of what was `sent`.
    private func describe(
        _ error: any Error, outcome: String, sent: URLRequest?, of request: any Request, duration: Duration?
    ) -> [String] {
        let fetchError = error as? FetchError
        if let response = fetchError?.response {
            return describe(response, of: request, outcome: outcome, duration: duration)
        }
        return [summary(of: sent, naming: fetchError, for: request, outcome: outcome, duration: duration)]
    }

    /// The entry for attempt `number` of a call, which another attempt followed.
    func event(forAttempt attempt: AttemptLog.Attempt, number: Int, of request: any Request) -> LogEvent {
        let outcome: String
        let level: LogEvent.Level
        switch attempt.result {
        case .success(let response)?:
            outcome = "\(response.status)"
            level = response.status >= 400 ? .error : .info
        case .failure(let error)?:
            outcome = describe(error)
            level = .error
        case nil:
            outcome = "no result seen"
            level = .info
        }
        let line =
            summary(of: attempt.sent, for: request, outcome: outcome, duration: nil)
            + " (attempt \(number), sent again)"
        return LogEvent(level: level, message: line, request: request, duration: nil)
    }

    /// An error as the log writes it: a ``FetchError``'s code and reason, anything else as
    /// it describes itself; URLs quoted in it are redacted.
    private func describe(_ error: any Error) -> String {
        // A reason may quote a URL, with the secrets in its query.
        redaction.redactingURLs(in: (error as? FetchError).map { "\($0.code.rawValue): \($0.reason)" } ?? "\(error)")
    }

    /// The summary line, then what the options ask for of what was sent and what came back.
    private func describe(_ response: Response, of request: any Request, outcome: String, duration: Duration?)
        -> [String]
    {
        let sent = response.urlRequest
        var lines = [summary(of: sent, for: request, outcome: outcome, duration: duration)]
        if options.contains(.requestHeaders) { lines += redaction.headerLines(of: sent).map { "> " + $0 } }
        if options.contains(.requestBody), let body = sent.httpBody, !body.isEmpty {
            lines.append("> " + preview(body, contentType: sent.value(forHTTPHeaderField: "Content-Type")))
        }
        if options.contains(.responseHeaders) { lines += redaction.headerLines(of: response.headers).map { "< " + $0 } }
        if options.contains(.responseBody) {
            let body =
                response.body.isEmpty
                ? nil : preview(response.body, contentType: response.headers.first("Content-Type"))
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

    /// The start of `body` as the log writes it: secret values hidden, up to the body limit.
    private func preview(_ body: Data, contentType: String?) -> String {
        redaction.body(body, contentType: contentType).preview(limit: configuration.bodyLimit)
    }

    /// The summary line for what was `sent`; while nothing was, for the call as `error` or
    /// the request names it.
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
