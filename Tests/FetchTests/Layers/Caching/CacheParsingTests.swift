import Foundation
import Testing
@testable import Fetch
@testable import FetchCaching

/// Reading `Cache-Control` directives and HTTP dates.
@Suite struct CacheParsingTests {
    @Test func directivesAreReadWhateverTheirSpacingAndCase() {
        // Given a field with every directive the cache reads
        let directives = CacheDirectives(
            fieldValue:
                " No-Store ,no-cache=\"Set-Cookie, X-A\", must-revalidate, PUBLIC, private, only-if-cached, max-age=5, s-maxage=7, min-fresh=3, max-stale"
        )

        // Then each is read, the quoted list staying one argument (a request's qualified
        // no-cache counting as no-cache), and s-maxage, which a private cache ignores, is not
        #expect(directives.noStore && directives.noCache && directives.mustRevalidate)
        #expect(directives.noCacheFields == ["set-cookie", "x-a"])
        #expect(directives.isPublic && directives.isPrivate && directives.onlyIfCached)
        #expect(directives.maxAge == .value(5))
        #expect(directives.minFresh == .value(3) && directives.maxStale == .value(Int.max))
    }

    @Test func aResponsesNoCacheIsQualifiedOnlyWhenItNamesFields() {
        // Given response fields with no-cache naming fields, naming none, and both
        let named = CacheDirectives(["Cache-Control": "no-cache=\"Set-Cookie\""])
        let empty = CacheDirectives(["Cache-Control": "no-cache=\"\""])
        let both = CacheDirectives(["Cache-Control": "no-cache=\"X-A\", no-cache"])

        // Then only the first may be served fresh, without Set-Cookie
        #expect(!named.noCache && named.noCacheFields == ["set-cookie"])
        #expect(empty.noCache && empty.noCacheFields.isEmpty)
        #expect(both.noCache && both.noCacheFields == ["x-a"])
    }

    @Test(arguments: [
        ("007", CacheDirectives.Seconds.value(7)), ("0", .value(0)), ("2147483648", .value(1 << 31)),
        ("2147483649", .value(1 << 31)), ("99999999999999999999999", .value(1 << 31)),
        ("-1", .invalid), ("", .invalid), ("1.5", .invalid), ("+3", .invalid), ("١٢", .invalid),
    ])
    func deltaSeconds(_ text: String, _ expected: CacheDirectives.Seconds) {
        #expect(CacheDirectives.seconds(Substring(text)) == expected, "\(text)")
    }

    @Test func aDirectiveRepeatedWithAnotherValueKeepsTheFirstRFC9111Section4_2_1() {
        #expect(CacheDirectives(fieldValue: "max-age=5, max-age=6").maxAge == .value(5))
        #expect(CacheDirectives(fieldValue: "min-fresh=6, min-fresh=5").minFresh == .value(6))
        #expect(CacheDirectives(fieldValue: "max-age=5, max-age=5").maxAge == .value(5))
        #expect(CacheDirectives(fieldValue: "max-age").maxAge == .invalid)
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func theThreeDateFormats(_ text: String) {
        // 784111777 is 1994-11-06 08:49:37 UTC, the example of RFC 9110
        #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == 784_111_777, "\(text)")
    }

    @Test func datesAcrossTheCalendar() {
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT")?.timeIntervalSince1970 == 0)
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 23:59:59 GMT")?.timeIntervalSince1970 == 951_868_799)
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:59 GMT")?.timeIntervalSince1970 == 253_402_300_799)
        #expect(HTTPDate.parse("Monday, 01-Jan-69 00:00:00 GMT")?.timeIntervalSince1970 == 3_124_224_000)
    }

    @Test(arguments: [
        "", "0", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT",
        "Sun, 29 Feb 1900 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 0000 08:49:37 GMT",
        "Sun, -6 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
    ])
    func notDates(_ text: String) {
        #expect(HTTPDate.parse(text) == nil, "\(text)")
    }
}
