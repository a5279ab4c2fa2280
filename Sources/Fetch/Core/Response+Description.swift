extension Response: CustomStringConvertible, CustomDebugStringConvertible {
    /// One readable block: status, method and URL, the headers, the start of the body, hidden by ``Redaction/default``.
    public var description: String { block(bodyLimit: 200, detailed: false) }

    /// ``description`` with more of the body (1 KiB), the header fields that were sent
    /// (redacted, marked `>`), the file of a download and the metrics.
    public var debugDescription: String { block(bodyLimit: 1024, detailed: true) }

    /// The lines of the block, the first one not indented, the others by `indent`.
    func block(bodyLimit: Int, detailed: Bool, indent: String = "  ") -> String {
        let redaction = Redaction.default
        let method = urlRequest.httpMethod ?? request.method.rawValue
        let address = (url ?? urlRequest.url).map(redaction.string(for:)) ?? request.url.absoluteString
        var lines = ["HTTP \(status) for \(method) \(address)"]
        if detailed { lines += redaction.headerLines(of: urlRequest).map { "> " + $0 } }
        lines += redaction.headerLines(of: headers)
        if let fileURL {
            lines.append("body: in \(fileURL.path)")
        } else if body.isEmpty {
            lines.append("body: empty")
        } else if body.prefix(bodyLimit).contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            // Control characters other than tabs and line ends: not text to print.
            lines.append("body: \(body.count) bytes, not text")
        } else {
            let preview = bodyPreview(limit: bodyLimit, redaction: redaction)
            let text = preview.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                .joined(separator: "\n" + indent + "  ")
            lines.append("body (\(body.count == 1 ? "1 byte" : "\(body.count) bytes")): \(text)")
        }
        if detailed, metrics != ResponseMetrics() { lines.append("metrics: \(metrics)") }
        return lines.joined(separator: "\n" + indent)
    }
}
