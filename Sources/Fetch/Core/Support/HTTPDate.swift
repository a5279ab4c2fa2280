/// Reads the dates of HTTP fields, in UTC, with plain arithmetic (no formatter or calendar).
/// A two-digit year of 70 to 99 is 19xx, one of 0 to 69 is 20xx.
public enum HTTPDate {
    private typealias Time = (hour: Int, minute: Int, second: Int)
    private typealias Token = Substring.UTF8View

    /// The date `text` names as RFC 9110 §5.6.7's HTTP-date, strictly: IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`),
    /// RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`) or asctime (`Sun Nov  6 08:49:37 1994`); `nil` for anything else.
    public static func parse(_ text: String) -> Date? {
        let words = text.utf8.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ",") })
        let isGMT = words.last.map { $0.elementsEqual("GMT".utf8) } ?? false
        let parts: (day: Token, month: Token, year: Token, time: Token)
        switch words.count {
        case 4 where isGMT:
            // RFC 850: weekday, DD-Mon-YY HH:MM:SS GMT
            let date = words[1].split(separator: UInt8(ascii: "-"))
            guard date.count == 3, date[2].count == 2 else { return nil }
            parts = (date[0], date[1], date[2], words[2])
        case 6 where isGMT && words[3].count == 4:
            // IMF-fixdate: weekday, DD Mon YYYY HH:MM:SS GMT
            parts = (words[1], words[2], words[3], words[4])
        case 5 where words[4].count == 4:
            // asctime: weekday Mon D HH:MM:SS YYYY
            parts = (words[2], words[1], words[4], words[3])
        default:
            return nil
        }
        guard let day = wholeNumber(parts.day), parts.month.count == 3, let month = month(parts.month),
            let year = wholeNumber(parts.year), let (clock, rest) = time(parts.time, digits: 2...2), rest.isEmpty
        else { return nil }
        let wholeYear = parts.year.count == 2 ? fullYear(year) : year
        return date(year: wholeYear, month: month, day: day, clock, leapSecond: true)
    }

    /// A cookie's `Expires`, by RFC 6265 §5.1.1 (FoundationNetworking reads `01-Jan-99` as the year 98): of the tokens
    /// between delimiters, the first that reads as a time, a day, a month or a year (in that order) gives that part.
    static func parseCookieDate(_ text: String) -> Date? {
        var clock: Time?
        var day: Int?
        var month: Int?
        var year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            if clock == nil, let found = time(token, digits: 1...2) {
                clock = found.time
            } else if day == nil, let found = leadingNumber(token, digits: 1...2) {
                day = found
            } else if month == nil, let found = self.month(token) {
                month = found
            } else if year == nil, let found = leadingNumber(token, digits: 2...4) {
                year = found
            }
        }
        guard let clock, let day, let month, let year, fullYear(year) >= 1601 else { return nil }
        return date(year: fullYear(year), month: month, day: day, clock, leapSecond: false)
    }

    private static func fullYear(_ year: Int) -> Int {
        switch year {
        case 70...99: year + 1900
        case 0...69: year + 2000
        default: year
        }
    }

    /// A cookie date's delimiter: `%x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E`.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// The number made by the leading digits of `token`, when there are `digits` of them.
    private static func leadingNumber(_ token: Token, digits: ClosedRange<Int>) -> Int? {
        let run = token.prefix(while: isDigit)
        guard digits.contains(run.count) else { return nil }
        return run.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// The number `token` spells with `digits` digits and nothing else.
    private static func wholeNumber(_ token: Token, digits: ClosedRange<Int> = 1...4) -> Int? {
        token.allSatisfy(isDigit) ? leadingNumber(token, digits: digits) : nil
    }

    /// The `hh:mm:ss` time (`digits` digits a part) that starts `token`, and what follows it (a non-digit first).
    private static func time(_ token: Token, digits: ClosedRange<Int>) -> (time: Time, rest: Token)? {
        let fields = token.split(separator: UInt8(ascii: ":"), maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let hour = wholeNumber(fields[0], digits: digits),
            let minute = wholeNumber(fields[1], digits: digits), let second = leadingNumber(fields[2], digits: digits)
        else { return nil }
        return ((hour, minute, second), fields[2].drop(while: isDigit))
    }

    /// The month (1 to 12) whose three-letter name starts `token`, in any case.
    private static func month(_ token: Token) -> Int? {
        let name = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        return months.firstIndex(of: name).map { $0 + 1 }
    }

    /// The moment in UTC; `nil` for a day that does not exist or a time out of range (second 60 needs `leapSecond`).
    private static func date(year: Int, month: Int, day: Int, _ clock: Time, leapSecond: Bool) -> Date? {
        guard year >= 1, day >= 1, day <= daysIn(month, of: year), clock.hour <= 23, clock.minute <= 59,
            clock.second <= (leapSecond ? 60 : 59)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(
            timeIntervalSince1970: TimeInterval(days * 86_400 + clock.hour * 3_600 + clock.minute * 60 + clock.second))
    }

    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
