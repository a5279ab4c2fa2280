extension URLRequest {
    /// The value of the header `name`, compared without case: what `value(forHTTPHeaderField:)`
    /// returns, without lowercasing both names at each compare as it does on Linux.
    func header(_ name: String) -> String? {
        allHTTPHeaderFields?.field(named: name)?.value
    }

    /// Sets the header `name` to `value` after checking the value: on Linux `setValue` silently drops a value holding
    /// CR or LF. The name, and whether the transport owns it, are checked with the finished request
    /// (``Request/checkedURLRequest()``). A name spelled as `setValue` stores it (`Content-Type`) is set in the fields
    /// directly: on Linux `setValue` capitalizes the name and scans the value again.
    /// - Parameter replacing: whether to replace a value the request already has.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` for a value that cannot be sent.
    mutating func setHeader(_ name: String, _ value: String, replacing: Bool) throws {
        var fields = allHTTPHeaderFields ?? [:]
        let existing = fields.field(named: name)?.key
        if existing != nil && !replacing { return }
        try HeaderRules.validate(value: value, of: name)
        guard Self.isCapitalized(name) else { return setValue(value, forHTTPHeaderField: name) }
        if let existing { fields[existing] = nil }
        fields[name] = value
        allHTTPHeaderFields = fields
    }

    /// Whether `name` is `-`-joined ASCII words, each capitalized: what `capitalized` leaves as it is.
    private static func isCapitalized(_ name: String) -> Bool {
        var startsWord = true
        for byte in name.utf8 {
            let isUpper = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            let isLower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
            guard startsWord ? isUpper : isLower || byte == UInt8(ascii: "-") else { return false }
            startsWord = byte == UInt8(ascii: "-")
        }
        return !startsWord
    }
}
