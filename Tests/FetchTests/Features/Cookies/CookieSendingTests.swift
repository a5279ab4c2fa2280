import Foundation
import Testing

@testable import Fetch

/// Which stored cookies go with a request, in which order (RFC 6265 §5.4).
struct CookieSendingTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The names of the cookies of `records` sent to `url` at `now`, in order.
    static func sent(_ records: [CookieRecord], to url: String, at now: Date = now) throws -> [String] {
        CookieRecord.sent(to: try #require(URL(string: url)), from: records, at: now).map(\.name)
    }

    @Test(arguments: [
        ("https://example.com/", ["secure", "plain"]),
        ("http://example.com/", ["plain"]),
        ("HTTPS://example.com/", ["secure", "plain"]),
    ])
    func secureGoesOnlyOverHTTPS(url: String, names: [String]) throws {
        // Given a Secure cookie and a plain one
        let records = [
            CookieRecord(name: "secure", value: "s", domain: "example.com", secure: true, created: Self.now),
            CookieRecord(name: "plain", value: "p", domain: "example.com", created: Self.now + 1),
        ]
        // When a request goes to the URL
        // Then the Secure one goes only over https
        #expect(try Self.sent(records, to: url) == names)
    }

    @Test(arguments: [
        ("http://example.com/", ["hostOnly", "domain"]),
        ("http://www.example.com/", ["domain"]),  // a host-only cookie stays on its host
        ("http://other.com/", [String]()),
        ("http://example.com/admin", ["admin", "hostOnly", "domain"]),
        ("http://example.com/admin/users", ["admin", "hostOnly", "domain"]),
        ("http://example.com/administrator", ["hostOnly", "domain"]),
    ])
    func domainAndPath(url: String, names: [String]) throws {
        // Given a host-only cookie, a domain cookie and one for /admin
        let records = [
            CookieRecord(name: "hostOnly", value: "1", domain: "example.com", created: Self.now),
            CookieRecord(name: "domain", value: "1", domain: "example.com", hostOnly: false, created: Self.now + 1),
            CookieRecord(name: "admin", value: "1", domain: "example.com", path: "/admin", created: Self.now + 2),
        ]
        // When a request goes to the URL
        // Then only those whose domain and path match go
        #expect(try Self.sent(records, to: url) == names)
    }

    /// Seconds after `now`, and the cookies sent then.
    static let expiryCases: [(TimeInterval, [String])] = [
        (0, ["session", "later"]),
        (59, ["session", "later"]),
        (60, ["session"]),  // expired at its expiry time
        (3_600, ["session"]),
    ]

    @Test(arguments: expiryCases)
    func expiredCookiesAreNotSent(after seconds: TimeInterval, names: [String]) throws {
        // Given a session cookie and one expiring in 60 s
        let records = [
            CookieRecord(name: "session", value: "1", domain: "example.com", created: Self.now),
            CookieRecord(
                name: "later", value: "1", domain: "example.com", expires: Self.now + 60, created: Self.now + 1),
        ]
        // When a request goes later
        // Then the expiring cookie goes until it expires
        #expect(try Self.sent(records, to: "http://example.com/", at: Self.now + seconds) == names)
    }

    @Test func longerPathsFirstThenEarlierCreation() throws {
        // Given cookies made in the order new, old... with paths of several lengths
        let records = [
            CookieRecord(name: "rootNew", value: "1", domain: "example.com", path: "/", created: Self.now + 5),
            CookieRecord(name: "deep", value: "1", domain: "example.com", path: "/a/b", created: Self.now + 9),
            CookieRecord(name: "rootOld", value: "1", domain: "example.com", path: "/", created: Self.now + 1),
            CookieRecord(name: "middle", value: "1", domain: "example.com", path: "/a", created: Self.now),
        ]
        // When a request goes to /a/b/c
        let sent = CookieRecord.sent(
            to: try #require(URL(string: "http://example.com/a/b/c")), from: records, at: Self.now)
        // Then the longest path goes first, and among equal paths the oldest cookie
        #expect(sent.map(\.name) == ["deep", "middle", "rootOld", "rootNew"])
        #expect(CookieRecord.fieldValue(sent) == "deep=1; middle=1; rootOld=1; rootNew=1")
    }

    @Test(arguments: ["a;b", "a\r\nX-Injected: 1", "a\u{0}"])
    func aCookieThatCannotBeSentAsItIsStaysOut(value: String) throws {
        // Given a cookie made by hand whose value would break the Cookie field
        let records = [
            CookieRecord(name: "bad", value: value, domain: "example.com"),
            CookieRecord(name: "good", value: "1", domain: "example.com"),
        ]
        // When a request goes to its host
        // Then it is left out, and the others go
        #expect(try Self.sent(records, to: "http://example.com/") == ["good"])
    }
}
