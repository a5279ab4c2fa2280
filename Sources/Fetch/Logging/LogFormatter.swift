import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Writes the text of one log entry.
struct LogFormatter {
    let configuration: LogConfiguration
    let options: LogOptions
    /// The kind of the call logged: where its response body went.
    var kind = CallKind.Name.plain

    private var redaction: Redaction { configuration.redaction }

    /// The entry for a call that ended with `result`, after `attempts`.
    func event(
        for request: any Request, result: Result<Response, any Error>, duration: Duration?,
        attempts: [AttemptLog.Attempt] = []
    ) -> LogEvent {
        let lines: [String]
        let level: LogEvent.Level
        switch result {
        case .success(let response):
            level = .info
            lines = describe(response, of: request, outcome: "\(response.status)", duration: duration)
        case .failure(let error):
            level = .error
            let fetchError = error as? FetchError
            let failure = describe(error)
            if let response = fetchError?.response {
                lines = describe(response, of: request, outcome: failure, duration: duration)
            } else if let last = attempts.last, case .success(let response)? = last.result {
                // An error handler below replaced the error of a response that came.
                lines = describe(
                    response, of: request, outcome: "\(response.status), replaced by \(failure)",
                    duration: duration)
            } else if let last = attempts.last {
                let came =
                    last.result.map { result -> String in
                        if case .failure(let original) = result { return describe(original) + ", replaced by " }
                        return ""
                    } ?? ""
                lines = [
                    summary(
                        method: last.sent.httpMethod ?? request.method.rawValue, url: last.sent.url ?? request.url,
                        outcome: came + failure, duration: duration)
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
            lines.append("> " + body.preview(limit: configuration.bodyLimit))
        }
        if options.contains(.responseHeaders) {
            lines += response.headers.map { "< \($0.name): \(redaction.value($0.value, ofHeader: $0.name))" }
        }
        if options.contains(.responseBody) {
            switch kind {
            case .plain, .upload:
                if !response.body.isEmpty { lines.append("< " + response.body.preview(limit: configuration.bodyLimit)) }
            case .download:
                // Unless a layer answered with the body in memory, it went to a file.
                let body = response.body
                lines.append(
                    body.isEmpty ? "< (body written to a file)" : "< " + body.preview(limit: configuration.bodyLimit))
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
