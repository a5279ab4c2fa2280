extension URLRequest {
    /// Sets the header `name` to `value` after checking the value: on Linux `setValue`
    /// silently drops a value holding CR or LF, so it must be refused first. The name, and
    /// whether the transport owns it, are checked with the finished request
    /// (``Request/checkedURLRequest()``).
    /// - Parameter replacing: whether to replace a value the request already has.
    /// - Throws: ``FetchError/Code-swift.enum/invalidRequest`` for a value that cannot be sent.
    mutating func setHeader(_ name: String, _ value: String, replacing: Bool) throws {
        if !replacing && self.value(forHTTPHeaderField: name) != nil { return }
        try HeaderRules.validate(value: value, of: name)
        setValue(value, forHTTPHeaderField: name)
    }
}
