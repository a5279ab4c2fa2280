import Foundation

/// The date of a cookie's `Expires` attribute, read with the algorithm of RFC 6265 §5.1.1,
/// which accepts what servers send in practice: `Wed, 01 Jan 2099 00:00:00 GMT`,
/// `Wednesday, 01-Jan-99 00:00:00 GMT`, `Wed Jan  1 00:00:00 2099` and the like.
///
/// Tokens are split at delimiters; the first token that reads as a time, a day of the month,
/// a month and a year, in that order of trial, gives each part. A two-digit year of 70 to 99
/// is 19xx and one of 0 to 69 is 20xx. FoundationNetworking's parser reads `01-Jan-99` as
/// the year 98, which is why Fetch has its own.
enum CookieDate {
    /// The moment `text` names, in UTC, or `nil` when it is not a cookie date (a part is
    /// missing or out of range, or the day does not exist in that month).
    static func parse(_ text: String) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in tokens(of: text) {
            if time == nil, let found = readTime(token) {
                time = found
            } else if day == nil, let found = leadingNumber(token, digits: 1...2) {
                day = found
            } else if month == nil, let found = readMonth(token) {
                month = found
            } else if year == nil, let found = leadingNumber(token, digits: 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59,
            day >= 1, day <= HTTPDate.daysIn(month, of: year)
        else { return nil }
        let days = HTTPDate.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The date tokens of `text`: runs of bytes that are not delimiters (§5.1.1).
    static func tokens(of text: String) -> [Substring.UTF8View] {
        text.utf8.split(whereSeparator: isDelimiter)
    }

    /// `%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    /// The number made by the leading digits of `token`, when there are `digits` of them and
    /// what follows, if anything, starts with a non-digit.
    private static func leadingNumber(_ token: Substring.UTF8View, digits: ClosedRange<Int>) -> Int? {
        let count = token.prefix(while: isDigit).count
        guard digits.contains(count) else { return nil }
        return token.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `1*2DIGIT ":" 1*2DIGIT ":" 1*2DIGIT ( non-digit *OCTET )`.
    private static func readTime(_ token: Substring.UTF8View) -> (hour: Int, minute: Int, second: Int)? {
        var rest = token[...]
        var parts: [Int] = []
        for index in 0..<3 {
            let count = rest.prefix(while: isDigit).count
            guard (1...2).contains(count) else { return nil }
            parts.append(rest.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (parts[0], parts[1], parts[2])
    }

    /// The month (1 to 12) whose three-letter name starts `token`, in any case.
    private static func readMonth(_ token: Substring.UTF8View) -> Int? {
        guard token.count >= 3 else { return nil }
        let name = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        return months.firstIndex(of: name).map { $0 + 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
