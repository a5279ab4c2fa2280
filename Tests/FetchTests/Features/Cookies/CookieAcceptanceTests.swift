import Foundation
import Testing

@testable import Fetch

/// What a received cookie stores (RFC 6265 §5.3): its domain, path and expiry, or nothing.
struct CookieAcceptanceTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// The record `text` stores when received from `url` at ``now``.
    static func accept(_ text: String, from url: String) throws -> CookieRecord? {
        let parsed = try #require(SetCookie(text))
        return CookieRecord(accepting: parsed, from: try #require(URL(string: url)), at: now)
    }

    /// Where an accepted cookie applies.
    struct Scope: Equatable, Sendable, CustomTestStringConvertible {
        var text: String
        var url: String
        var domain: String?
        var hostOnly = true
        var path = "/"
        var testDescription: String { "\(text) from \(url)" }
    }

    @Test(arguments: [
        Scope(text: "a=1", url: "http://www.example.com/", domain: "www.example.com"),
        Scope(text: "a=1; Domain=example.com", url: "http://www.example.com/", domain: "example.com", hostOnly: false),
        Scope(text: "a=1; Domain=.EXAMPLE.com", url: "http://www.example.com/", domain: "example.com", hostOnly: false),
        // §5.3 step 6: a Domain equal to the host makes a domain cookie, with or without a dot
        Scope(
            text: "a=1; Domain=www.example.com", url: "http://www.example.com/", domain: "www.example.com",
            hostOnly: false),
        Scope(
            text: "a=1; Domain=.www.example.com", url: "http://www.example.com/", domain: "www.example.com",
            hostOnly: false),
        // §5.2.3 and §5.3 step 6: `.` alone leaves an empty domain, so the cookie is host-only, also
        // over an earlier Domain (the last one counts)
        Scope(text: "a=1; Domain=.", url: "http://www.example.com/", domain: "www.example.com"),
        Scope(text: "a=1; Domain=example.com; Domain=.", url: "http://www.example.com/", domain: "www.example.com"),
        Scope(text: "a=1; Domain=other.com", url: "http://www.example.com/", domain: nil),  // not its domain
        Scope(text: "a=1; Domain=sub.www.example.com", url: "http://www.example.com/", domain: nil),  // a child
        Scope(text: "a=1; Domain=com", url: "http://www.example.com/", domain: nil),  // a public suffix
        Scope(text: "a=1; Domain=localhost", url: "http://localhost/", domain: "localhost"),  // step 5: a public suffix
        Scope(text: "a=1; Domain=127.0.0.1", url: "http://127.0.0.1/", domain: "127.0.0.1"),  // an IP: host-only
        Scope(text: "a=1; Domain=0.0.1", url: "http://127.0.0.1/", domain: nil),
        Scope(text: "a=1", url: "http://example.com/account/login", domain: "example.com", path: "/account"),
        Scope(text: "a=1; Path=/x", url: "http://example.com/account/login", domain: "example.com", path: "/x"),
        Scope(text: "a=1; Path=x", url: "http://example.com/account/login", domain: "example.com", path: "/account"),
    ])
    func domainAndPath(scope: Scope) throws {
        // Given a cookie received from a URL
        // When it is accepted
        let record = try Self.accept(scope.text, from: scope.url)
        // Then it applies to the domain and path the RFC gives, or is ignored
        #expect(record?.domain == scope.domain)
        if let record {
            #expect(record.hostOnly == scope.hostOnly)
            #expect(record.path == scope.path)
        }
    }

    @Test(arguments: [
        ("a=1", nil as TimeInterval?),  // a session cookie
        ("a=1; Max-Age=60", 60),
        ("a=1; Expires=Fri, 15 Jan 2027 09:00:00 GMT", 3_600),  // an hour after `now`
        ("a=1; Expires=Wed, 01 Jan 2099 00:00:00 GMT; Max-Age=60", 60),  // Max-Age wins
        ("a=1; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT", 60),  // whatever the order
    ])
    func expiry(text: String, secondsFromNow: TimeInterval?) throws {
        // Given a cookie with or without Expires and Max-Age
        // When it is accepted
        let accepted = try Self.accept(text, from: "http://example.com/")
        let record = try #require(accepted)
        // Then it expires when Max-Age says, else when Expires says, else never (a session cookie)
        #expect(record.expires.map { $0.timeIntervalSince(Self.now) } == secondsFromNow)
    }

    @Test(arguments: ["a=1; Max-Age=0", "a=1; Max-Age=-1", "a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT"])
    func expiredOnArrival(text: String) throws {
        // Given a cookie whose Max-Age is zero or less, or whose date has passed
        // When it is accepted
        let accepted = try Self.accept(text, from: "http://example.com/")
        let record = try #require(accepted)
        // Then it has expired already: storing it removes the cookie it replaces
        #expect(record.isExpired(at: Self.now))
    }

    @Test func flagsAreKept() throws {
        // Given a cookie with Secure and HttpOnly
        // When it is accepted
        let accepted = try Self.accept("a=1; Secure; HttpOnly", from: "https://example.com/")
        let record = try #require(accepted)
        // Then both flags are kept
        #expect(record.secure)
        #expect(record.httpOnly)
    }
}
