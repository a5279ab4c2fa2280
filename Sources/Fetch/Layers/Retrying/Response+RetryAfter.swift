extension Response {
    /// How long the server asks the client to wait, from `Retry-After` in seconds (`120`) or
    /// as an HTTP date, turned into a delay from `now` (zero when past); `nil` when absent or unreadable.
    public func retryAfter(now: Date = Date()) -> Duration? {
        guard let value = headers.first("Retry-After")?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        if value.allSatisfy(\.isASCII), value.allSatisfy(\.isNumber) {
            return Int(value).map { .seconds($0) } ?? .seconds(Int.max)
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .seconds(max(0, date.timeIntervalSince(now)))
    }
}
