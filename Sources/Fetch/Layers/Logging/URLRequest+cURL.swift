extension URLRequest {
    /// A `curl` command that sends this request, with sensitive values hidden by `redaction`.
    ///
    /// Headers are sorted by name. A text body is included, with secret form fields and JSON
    /// keys hidden (``Redaction/body(_:contentType:)``); a body that is not UTF-8
    /// text is left out and named in a comment. A relative URL (one a `BaseURL` enhancer
    /// would complete) is said so in a first comment line, since curl cannot send it.
    /// - Parameter redaction: what to hide; the default headers by default.
    public func curlDescription(redaction: Redaction = .default) -> String {
        var lines: [String] = []
        if let url, url.scheme == nil {
            lines.append(
                "# \(shellQuoted(url.relativeString)) is relative: pass a baseURL to the request's "
                    + "curlDescription(baseURL:), or use response.urlRequest.curlDescription() for what was sent")
        }
        let method = httpMethod ?? "GET"
        var command = "curl"
        switch method {
        case "GET": break
        case "HEAD": command += " --head"
        default: command += " -X \(shellQuoted(method))"
        }
        command += " " + shellQuoted(url.map(redaction.string(for:)) ?? "")
        lines.append(command)
        lines += redaction.headerLines(of: self).map { "-H " + shellQuoted($0) }
        if let body = httpBody, !body.isEmpty {
            let shown = redaction.body(body, contentType: value(forHTTPHeaderField: "Content-Type"))
            if let text = String(data: shown, encoding: .utf8) {
                lines.append("--data-binary " + shellQuoted(text))
            } else {
                lines.append("# a body of \(body.count) bytes that are not UTF-8 text is left out")
            }
        }
        return lines.joined(separator: " \\\n  ")
    }

    private func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

extension Request {
    /// A `curl` command that sends this request as it is built here, with sensitive values
    /// hidden by `redaction`. Layers such as enhancers are not applied: for what was really
    /// sent, use `response.urlRequest.curlDescription()`.
    /// - Parameters:
    ///   - baseURL: completes a relative URL as a `BaseURL` enhancer does; without it, a
    ///     relative URL is printed as it is, after a comment saying so.
    ///   - redaction: what to hide.
    /// - Throws: the error building the request throws (an invalid header, a body that
    ///   does not encode), or ``FetchError/Code-swift.enum/invalidRequest`` for a base URL
    ///   that is not usable.
    public func curlDescription(baseURL: URL? = nil, redaction: Redaction = .default) throws -> String {
        var urlRequest = try makeURLRequest()
        if let baseURL { try BaseURL(baseURL).enhance(&urlRequest, for: self) }
        return urlRequest.curlDescription(redaction: redaction)
    }
}
