import Foundation
import Testing

@testable import Fetch

/// The two date grammars share their parts but not their limits.
struct HTTPDateTests {
    @Test func aLeapSecondIsAnHTTPDateButNotACookieDate() {
        // Given a date whose second is 60, which RFC 9110 allows and RFC 6265 does not
        let text = "Wed, 31 Dec 2008 23:59:60 GMT"

        // When it is read both ways
        let http = HTTPDate.parse(text)
        let cookie = HTTPDate.parseCookieDate(text)

        // Then only the HTTP-date reading accepts it, as the second after 23:59:59
        #expect(http?.timeIntervalSince1970 == 1_230_768_000)
        #expect(cookie == nil)
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37x GMT", "Sun, 06 Nov 1994 08:49:37 gmt"])
    func anHTTPDateIsReadStrictly(_ text: String) {
        // Given a date a cookie would accept but that is not an HTTP-date
        // When it is read as one
        // Then it is not a date
        #expect(HTTPDate.parse(text) == nil, "\(text)")
    }
}
