import Foundation

/// Reads the HTTP date formats of RFC 9110 section 5.6.7: the preferred IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`) and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`) forms. Anything else is not a date: `nil`.
///
/// Plain arithmetic, no formatter or calendar: a cache reads `Date` and `Expires` on every
/// lookup, and a `DateFormatter` costs microseconds.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` names, or `nil` when it is not an HTTP date.
    static func parse(_ text: String) -> Date? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," })
        var day: Int?
        var month: Int?
        var year: Int?
        var clock: (Int, Int, Int)?
        switch words.count {
        case 4 where words[3] == "GMT" && words[1].contains("-"):
            // RFC 850: weekday, DD-Mon-YY HH:MM:SS GMT
            let parts = words[1].split(separator: "-")
            guard parts.count == 3, parts[2].count == 2 else { return nil }
            (day, month, year, clock) = (number(parts[0]), monthNumber(parts[1]), number(parts[2]), time(words[2]))
            // Two-digit years: RFC 9110 reads one more than 50 years ahead as the past century.
            if let short = year { year = short + (short >= 70 ? 1900 : 2000) }
        case 6 where words[5] == "GMT":
            // IMF-fixdate: weekday, DD Mon YYYY HH:MM:SS GMT
            guard words[3].count == 4 else { return nil }
            (day, month, year, clock) = (number(words[1]), monthNumber(words[2]), number(words[3]), time(words[4]))
        case 5:
            // asctime: weekday Mon D HH:MM:SS YYYY
            guard words[4].count == 4 else { return nil }
            (day, month, year, clock) = (number(words[2]), monthNumber(words[1]), number(words[4]), time(words[3]))
        default:
            return nil
        }
        guard let day, let month, let year, let clock, year >= 1, day >= 1, day <= daysIn(month, of: year) else {
            return nil
        }
        let seconds =
            daysSinceEpoch(year: year, month: month, day: day) * 86_400 + clock.0 * 3600 + clock.1 * 60 + clock.2
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 4, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }

    private static func monthNumber(_ name: Substring) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    private static func time(_ text: Substring) -> (Int, Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
            let hour = number(parts[0]), let minute = number(parts[1]), let second = number(parts[2]),
            hour < 24, minute < 60, second < 61
        else { return nil }
        return (hour, minute, second)
    }

    /// How many days `month` has in `year` (Gregorian).
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
