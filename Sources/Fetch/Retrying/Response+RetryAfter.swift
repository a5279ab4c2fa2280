import Foundation

extension Response {
    /// How long the server asks the client to wait, from `Retry-After` given in seconds
    /// (`120`) or as an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`); `nil` when absent or
    /// unreadable. A date in the past gives zero.
    /// - Parameter now: the current time, to turn a date into a delay.
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

/// Reads the three date formats RFC 9110 allows in HTTP headers.
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",   // IMF-fixdate, the preferred one
        "EEEE, dd-MMM-yy HH:mm:ss zzz",    // obsolete RFC 850
        "EEE MMM d HH:mm:ss yyyy",         // obsolete asctime
    ]

    static func parse(_ text: String) -> Date? {
        // A formatter per call: only a retryable response with a dated Retry-After gets here.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
