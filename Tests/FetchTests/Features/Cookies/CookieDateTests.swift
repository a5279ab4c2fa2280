import Foundation
import Testing

@testable import Fetch

/// `Expires` dates are read with RFC 6265's algorithm (§5.1.1).
struct CookieDateTests {
    @Test(arguments: [
        ("Wed, 01 Jan 2099 00:00:00 GMT", "2099-01-01T00:00:00Z"),  // IMF-fixdate
        ("Wednesday, 01-Jan-99 00:00:00 GMT", "1999-01-01T00:00:00Z"),  // RFC 850: 70-99 is 19xx
        ("Thu, 01-Jan-37 10:20:30 GMT", "2037-01-01T10:20:30Z"),  // 0-69 is 20xx
        ("Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z"),  // asctime
        ("6 NOVEMBER 1994 8:9:7", "1994-11-06T08:09:07Z"),  // any order, any case, one digit
        ("Tue, 29 Feb 2028 12:00:00 GMT", "2028-02-29T12:00:00Z"),  // a leap day
        ("Sat, 01 Jan 2000 23:59:59GMT", "2000-01-01T23:59:59Z"),  // text glued to the time
    ])
    func readsWhatServersSend(text: String, iso: String) throws {
        // Given an Expires value as servers write it
        // When it is read
        let date = HTTPDate.parseCookieDate(text)
        // Then it is that moment in UTC
        #expect(date == ISO8601DateFormatter().date(from: iso))
    }

    @Test(arguments: [
        "",  // nothing
        "tomorrow",  // no part at all
        "01 Jan 2099",  // no time
        "Wed, 01 2099 00:00:00 GMT",  // no month
        "Wed, Jan 2099 00:00:00 GMT",  // no day
        "Wed, 32 Jan 2099 00:00:00 GMT",  // day 32
        "Tue, 30 Feb 2027 00:00:00 GMT",  // no such day
        "Wed, 01 Jan 1600 00:00:00 GMT",  // before 1601
        "Wed, 01 Jan 2099 24:00:00 GMT",  // hour 24
        "Wed, 01 Jan 2099 00:60:00 GMT",  // minute 60
        "Wed, 01 Jan 2099 00:00:60 GMT",  // second 60
        "0",  // what some servers send to mean "already expired"
    ])
    func refusesWhatIsNotADate(text: String) {
        // Given a value that is not a cookie date
        // When it is read
        // Then it gives no date (the attribute is ignored)
        #expect(HTTPDate.parseCookieDate(text) == nil)
    }
}
