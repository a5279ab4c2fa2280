extension URLRequest {
    /// A `curl` command that sends this request, with sensitive values hidden by `redaction`
    /// (the default headers by default): headers sorted by name, a text body with secret fields
    /// hidden (any other body named in a comment), and a first comment line for a relative URL.
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
    /// A `curl` command that sends this request as built here, with sensitive values hidden by `redaction`; layers such
    /// as enhancers are not applied (for what was sent, use `response.urlRequest.curlDescription()`). `baseURL`
    /// completes a relative URL as `BaseURL` does; without it, a comment says the URL is relative.
    /// - Throws: what building the request throws, or ``FetchError/Code-swift.enum/invalidRequest``
    ///   for a base URL that is not usable.
    public func curlDescription(baseURL: URL? = nil, redaction: Redaction = .default) throws -> String {
        var urlRequest = try makeURLRequest()
        if let baseURL { try BaseURL(baseURL).enhance(&urlRequest, for: self) }
        return urlRequest.curlDescription(redaction: redaction)
    }
}
