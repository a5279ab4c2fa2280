extension Redaction {
    /// Hides the values of secret form fields and JSON keys (see ``hides(name:)``) in `body`, for logs and cURL
    /// descriptions. It is read as JSON when `contentType` names JSON, or is absent or `text/plain` and the body starts
    /// with `{` or `[`; as a form when `contentType` says so, or is absent and the body looks like `name=value&...`;
    /// any other body is returned as it is. JSON is scanned as text, so a body cut short is still redacted.
    public func body(_ body: Data, contentType: String?) -> Data {
        guard !body.isEmpty else { return body }
        let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        let first = body.first { !Self.isJSONSpace($0) }
        let startsLikeJSON = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        let untyped = mediaType == nil || mediaType == "text/plain"
        if mediaType == "application/json" || mediaType?.hasSuffix("+json") == true || (untyped && startsLikeJSON) {
            return redactingJSON(body)
        }
        let isForm = mediaType == "application/x-www-form-urlencoded" || (mediaType == nil && Self.looksLikeForm(body))
        guard isForm, let text = String(data: body, encoding: .utf8) else { return body }
        return Data(redactingPairs(text[...]).utf8)
    }

    /// `name=value&...` pairs (a query or a form) with the value replaced wherever the decoded name is secret.
    func redactingPairs(_ pairs: Substring) -> String {
        pairs.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = String(pair[..<equals])
            let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name
            return hides(name: decoded) ? name + "=" + replacement : String(pair)
        }.joined(separator: "&")
    }

    /// Whether `body` is `name=value` pairs joined by `&`: printable ASCII without spaces.
    private static func looksLikeForm(_ body: Data) -> Bool {
        body.contains(UInt8(ascii: "=")) && body.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    private static func skippingSpace(_ bytes: [UInt8], from start: Int) -> Int {
        bytes[start...].firstIndex { !isJSONSpace($0) } ?? bytes.count
    }

    private static func isJSONSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// `json` with the value of every secret key replaced; scanned as bytes, a string followed by `:` being a key.
    private func redactingJSON(_ json: Data) -> Data {
        let bytes = [UInt8](json)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        let replacementJSON = Array(("\"" + replacement + "\"").utf8)
        var index = 0
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "\"")) {
            let end = Self.endOfString(bytes, from: open)
            output += bytes[index..<end]
            index = end
            let colon = Self.skippingSpace(bytes, from: end)
            guard colon < bytes.count, bytes[colon] == UInt8(ascii: ":"),
                hides(name: String(decoding: bytes[(open + 1)..<max(open + 1, end - 1)], as: UTF8.self))
            else { continue }
            let value = Self.skippingSpace(bytes, from: colon + 1)
            output += bytes[end..<value] + replacementJSON
            index = Self.endOfValue(bytes, from: value)
        }
        return Data(output + bytes[index...])
    }

    /// The index just past the string that starts at `start` (a quote), or the end.
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// The index just past the value that starts at `start`, or the end.
    private static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""): return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            repeat {
                switch bytes[index] {
                case UInt8(ascii: "\""): index = endOfString(bytes, from: index) - 1
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                index += 1
            } while depth > 0 && index < bytes.count
            return index
        default:
            return bytes[start...].firstIndex { ",}] \n\r\t".utf8.contains($0) } ?? bytes.count
        }
    }
}
