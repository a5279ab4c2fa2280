extension URLRequest {
    /// `value(forHTTPHeaderField:)`, without lowercasing both names at each compare as Linux does.
    func header(_ name: String) -> String? {
        allHTTPHeaderFields?.field(named: name)?.value
    }

    /// Checks the value first: Linux `setValue` silently drops one holding CR or LF (the name is checked later). A name
    /// spelled as `setValue` stores it goes in the fields directly: Linux `setValue` capitalizes it and rescans.
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
