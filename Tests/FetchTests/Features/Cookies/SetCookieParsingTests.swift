import Foundation
import Testing

@testable import Fetch

/// `Set-Cookie` values are parsed as RFC 6265 §5.2 says, malformed attributes ignored.
struct SetCookieParsingTests {
    /// What one set-cookie string must parse to.
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: SetCookie?
        var testDescription: String { text }
    }

    static func cookie(
        _ name: String, _ value: String, expires: Date? = nil, maxAge: Int? = nil, domain: String? = nil,
        path: String? = nil, secure: Bool = false, httpOnly: Bool = false
    ) -> SetCookie {
        var cookie = SetCookie("\(name)=x")!
        (cookie.value, cookie.expires, cookie.maxAge, cookie.domain) = (value, expires, maxAge, domain)
        (cookie.path, cookie.secure, cookie.httpOnly) = (path, secure, httpOnly)
        return cookie
    }

    static let year2099 = Date(timeIntervalSince1970: 4_070_908_800)

    @Test(arguments: [
        Case(text: "a=1", expected: cookie("a", "1")),
        Case(text: " a = 1 ; Path = /q ", expected: cookie("a", "1", path: "/q")),
        Case(text: "a=x=y", expected: cookie("a", "x=y")),
        Case(text: "a=", expected: cookie("a", "")),
        Case(text: "a=\"quoted\"", expected: cookie("a", "\"quoted\"")),
        Case(text: "novalue", expected: nil),  // no "=": ignored
        Case(text: "=v", expected: nil),  // empty name: ignored
        Case(text: "a=1; Path=x", expected: cookie("a", "1")),  // not "/...": default path
        Case(text: "a=1; Path=", expected: cookie("a", "1")),
        Case(text: "a=1; Path=/a; Path=/b", expected: cookie("a", "1", path: "/b")),  // the last wins
        Case(text: "a=1; Domain=.Example.COM", expected: cookie("a", "1", domain: "example.com")),
        Case(text: "a=1; Domain=", expected: cookie("a", "1")),  // empty Domain: ignored
        Case(text: "a=1; Max-Age=60", expected: cookie("a", "1", maxAge: 60)),
        Case(text: "a=1; max-age=-5", expected: cookie("a", "1", maxAge: -5)),
        Case(text: "a=1; Max-Age=abc", expected: cookie("a", "1")),  // not a number: ignored
        Case(text: "a=1; Max-Age=6 0", expected: cookie("a", "1")),
        Case(text: "a=1; Max-Age=99999999999999999999", expected: cookie("a", "1", maxAge: Int.max)),
        Case(
            text: "a=1; Expires=Wed, 01 Jan 2099 00:00:00 GMT; Max-Age=60",
            expected: cookie("a", "1", expires: year2099, maxAge: 60)),
        Case(text: "a=1; Expires=soon", expected: cookie("a", "1")),  // not a date: ignored
        Case(text: "a=1; Secure; HttpOnly", expected: cookie("a", "1", secure: true, httpOnly: true)),
        Case(text: "a=1; secure; HTTPONLY; SameSite=Lax", expected: cookie("a", "1", secure: true, httpOnly: true)),
    ])
    func parsesByTheRFC(_ parsing: Case) {
        // Given a set-cookie string
        // When it is parsed
        let parsed = SetCookie(parsing.text)
        // Then it gives the expected name, value and attributes, or nothing
        #expect(parsed == parsing.expected)
    }

    @Test(arguments: [
        ("a=1", ["a=1"]),
        ("a=1, b=2", ["a=1", "b=2"]),
        (
            "a=1; Expires=Wed, 01 Jan 2099 00:00:00 GMT, b=2; Path=/p",
            ["a=1; Expires=Wed, 01 Jan 2099 00:00:00 GMT", "b=2; Path=/p"]
        ),
        ("a=1; Expires=Wed, 01-Jan-2099 00:00:00 GMT", ["a=1; Expires=Wed, 01-Jan-2099 00:00:00 GMT"]),
        ("a=x,y", ["a=x,y"]),  // a comma in a value, with no pair after it
        // RFC 6265 §3 and URLSession's ", ": a comma with no space after it never joins two fields
        ("a=1,b=2", ["a=1,b=2"]),
        ("foo=bar; b,az=qux", ["foo=bar; b,az=qux"]),
    ])
    func splitsFieldsURLSessionJoined(folded: String, strings: [String]) {
        // Given repeated Set-Cookie fields as URLSession joins them (", ")
        // When the value is split
        // Then each cookie comes out whole, dates and commas without a space included
        #expect(SetCookie.split(folded: folded) == strings)
    }
}
