import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
        let lines: [String]
        let level: LogEvent.Level
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
            level = .info
            lines = describe(response, of: request, outcome: "\(response.status)", duration: duration)
        case .failure(let error):
            level = .error
            let fetchError = error as? FetchError
            let failure = describe(error)
            if let last = attempts.last, let replaced = last.replaced {
                lines = describe(replaced, replacedBy: failure, sent: last.sent, of: request, duration: duration)
            } else if let response = fetchError?.response {
                lines = describe(response, of: request, outcome: failure, duration: duration)
            } else if let last = attempts.last {
                lines = [
                    summary(
                        method: last.sent.httpMethod ?? request.method.rawValue, url: last.sent.url ?? request.url,
                        outcome: failure, duration: duration)
                ]
            } else {
                lines = [
                    summary(
                        method: (fetchError?.method ?? request.method).rawValue,
                        url: fetchError?.url ?? request.url, outcome: failure, duration: duration)
                ]
            }
        }
        return LogEvent(level: level, message: lines.joined(separator: "\n"), request: request, duration: duration)
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

    /// The lines for a call whose outcome, `replaced`, an error handler below replaced with
    /// the error written as `failure`: what came (its response, as the options ask), then
    /// what was delivered.
    private func describe(
        _ replaced: Result<Response, any Error>, replacedBy failure: String, sent: URLRequest,
        of request: any Request, duration: Duration?
    ) -> [String] {
        switch replaced {
        case .success(let response):
            return describe(
                response, of: request, outcome: "\(response.status), replaced by \(failure)", duration: duration)
        case .failure(let original):
            let outcome = describe(original) + ", replaced by " + failure
            if let response = (original as? FetchError)?.response {
                return describe(response, of: request, outcome: outcome, duration: duration)
            }
            return [
                summary(
                    method: sent.httpMethod ?? request.method.rawValue, url: sent.url ?? request.url,
                    outcome: outcome, duration: duration)
            ]
        }
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
            summary(
                method: attempt.sent.httpMethod ?? request.method.rawValue, url: attempt.sent.url ?? request.url,
                outcome: outcome, duration: nil) + " (attempt \(number), sent again)"
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
        var lines = [
            summary(
                method: sent.httpMethod ?? request.method.rawValue, url: sent.url ?? request.url,
                outcome: outcome, duration: duration)
        ]
        if options.contains(.requestHeaders) {
            let fields = (sent.allHTTPHeaderFields ?? [:]).sorted { $0.key.lowercased() < $1.key.lowercased() }
            lines += fields.map { "> \($0.key): \(redaction.value($0.value, ofHeader: $0.key))" }
        }
        if options.contains(.requestBody), let body = sent.httpBody, !body.isEmpty {
            let shown = redaction.body(body, contentType: sent.value(forHTTPHeaderField: "Content-Type"))
            lines.append("> " + shown.preview(limit: configuration.bodyLimit))
        }
        if options.contains(.responseHeaders) {
            lines += response.headers.map { "< \($0.name): \(redaction.value($0.value, ofHeader: $0.name))" }
        }
        if options.contains(.responseBody) {
            let body = response.body
            let shown = { redaction.body(body, contentType: response.headers.first("Content-Type")) }
            switch request.options.kind {
            case .plain, .upload:
                if !body.isEmpty { lines.append("< " + shown().preview(limit: configuration.bodyLimit)) }
            case .download:
                // Unless a layer answered with the body in memory, it went to a file.
                lines.append(
                    body.isEmpty ? "< (body written to a file)" : "< " + shown().preview(limit: configuration.bodyLimit)
                )
            case .stream:
                lines.append("< (body streamed to the reader)")
            }
        }
        if options.contains(.curl) { lines.append(sent.curlDescription(redaction: redaction)) }
        if options.contains(.metrics) { lines.append("  metrics: \(response.metrics)") }
        return lines
    }

    private func summary(method: String, url: URL, outcome: String, duration: Duration?) -> String {
        var parts: [String] = []
        if options.contains(.method) { parts.append(method) }
        if options.contains(.url) { parts.append(redaction.string(for: url)) }
        if options.contains(.status) { parts.append("-> " + outcome) }
        if let duration { parts.append("(\(Self.milliseconds(duration)) ms)") }
        return parts.joined(separator: " ")
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let tenths = (duration.seconds * 10_000).rounded()
        return "\(Int(tenths) / 10).\(abs(Int(tenths)) % 10)"
    }
}
