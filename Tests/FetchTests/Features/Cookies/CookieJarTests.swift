import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@testable import Fetch

/// A cookie store read and written by RFC 6265's rules, with a clock the test moves.
struct CookieJarTests {
    /// A jar over a new in-memory store, and its clock (near real time: the store itself
    /// refuses a cookie whose expiry has passed by the system's clock).
    static func jar() throws -> (CookieJar, TestClock) {
        let clock = TestClock(start: Date())
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        return (CookieJar(storage, clock: { clock.now }), clock)
    }

    /// The `Cookie` value `jar` sends to `url`.
    static func field(_ jar: CookieJar, _ url: String) throws -> String {
        CookieRecord.fieldValue(jar.cookies(for: try #require(URL(string: url))))
    }

    static let login = URL(string: "http://example.com/account/login")!

    @Test func storesByTheRulesAndSendsByThem() throws {
        // Given cookies set by a response to /account/login: no Path, Path=/, Secure
        let (jar, _) = try Self.jar()
        jar.store(["a=1", "b=2; Path=/", "s=3; Secure; Path=/"], from: Self.login)
        // When requests go to several URLs
        // Then each carries what matches: the default path is /account, Secure needs https
        #expect(try Self.field(jar, "http://example.com/account/x") == "a=1; b=2")
        #expect(try Self.field(jar, "http://example.com/other") == "b=2")
        #expect(try Self.field(jar, "https://example.com/other") == "b=2; s=3")
        #expect(try Self.field(jar, "http://www.example.com/account/x") == "")
    }

    @Test func aDomainEqualToTheHostReachesItsSubdomainsRFC6265Section5_3Step6() throws {
        // Given cookies whose Domain is the host that sets them, with and without a dot, and
        // one set by an IP address with its own address as Domain
        let (jar, _) = try Self.jar()
        jar.store(["a=1; Domain=home.example.org"], from: try #require(URL(string: "http://home.example.org/")))
        jar.store(["b=2; Domain=.home.example.org"], from: try #require(URL(string: "http://home.example.org/")))
        jar.store(["c=3; Domain=192.0.2.1"], from: try #require(URL(string: "http://192.0.2.1/")))
        // When requests go to the host, a subdomain, and a name that only ends like it
        // Then the host and its subdomain get both, the other name neither; the address only itself
        #expect(try Self.field(jar, "http://home.example.org/") == "a=1; b=2")
        #expect(try Self.field(jar, "http://subdomain.home.example.org/") == "a=1; b=2")
        #expect(try Self.field(jar, "http://otherhome.example.org/") == "")
        #expect(try Self.field(jar, "http://192.0.2.1/") == "c=3")
        #expect(try Self.field(jar, "http://1.192.0.2.1/") == "")
    }

    @Test func maxAgeExpiresOnTheClock() throws {
        // Given a cookie with Max-Age=60
        let (jar, clock) = try Self.jar()
        jar.store(["m=1; Max-Age=60"], from: Self.login)
        #expect(try Self.field(jar, "http://example.com/account/") == "m=1")
        // When 61 seconds pass
        clock.advance(seconds: 61)
        // Then it is no longer sent, and no longer in the store
        #expect(try Self.field(jar, "http://example.com/account/") == "")
        #expect(jar.storage.cookies?.isEmpty == true)
    }

    @Test(arguments: ["a=2; Max-Age=0", "a=2; Max-Age=-1", "a=2; Expires=Thu, 01 Jan 1970 00:00:00 GMT"])
    func anExpiredCookieDeletesTheStoredOne(deleting: String) throws {
        // Given a stored cookie
        let (jar, _) = try Self.jar()
        jar.store(["a=1"], from: Self.login)
        // When the server sets it again, already expired
        jar.store([deleting], from: Self.login)
        // Then it is gone
        #expect(jar.storage.cookies?.isEmpty == true)
    }

    @Test func maxAgeWinsOverAPastExpires() throws {
        // Given a cookie whose Expires has passed but whose Max-Age has not
        let (jar, _) = try Self.jar()
        // When it is stored
        jar.store(["a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=600"], from: Self.login)
        // Then it is sent
        #expect(try Self.field(jar, "http://example.com/account/") == "a=1")
    }

    @Test func aCookieOfTheSameNameDomainAndPathReplacesTheOld() throws {
        // Given a domain cookie for example.com
        let (jar, _) = try Self.jar()
        jar.store(["a=1; Domain=example.com; Path=/"], from: Self.login)
        // When the host sets a host-only cookie of the same name and path
        jar.store(["a=2; Path=/"], from: Self.login)
        // Then only the new one is kept
        #expect(jar.storage.cookies?.map(\.value) == ["2"])
        #expect(try Self.field(jar, "http://www.example.com/") == "")
    }

    @Test func httpOnlyIsKeptAndTheCookieSent() throws {
        // Given a cookie with HttpOnly
        let (jar, _) = try Self.jar()
        // When it is stored
        jar.store(["h=1; HttpOnly; Path=/"], from: Self.login)
        // Then the store holds it with the flag, and it goes with requests (Fetch is no browser)
        #expect(jar.storage.cookies?.first?.isHTTPOnly == true)
        #expect(try Self.field(jar, "http://example.com/") == "h=1")
    }

    @Test func aCookieForAnotherDomainIsIgnored() throws {
        // Given a response from www.example.com
        let (jar, _) = try Self.jar()
        // When it sets cookies for another domain and for a public suffix
        jar.store(
            ["a=1; Domain=other.com", "b=1; Domain=com"], from: try #require(URL(string: "http://www.example.com/")))
        // Then nothing is stored
        #expect(jar.storage.cookies?.isEmpty == true)
    }

    @Test func aStoreThatAcceptsNoCookieStaysEmpty() throws {
        // Given a store whose policy is never to accept cookies
        let (jar, _) = try Self.jar()
        jar.storage.cookieAcceptPolicy = .never
        // When a cookie arrives
        jar.store(["a=1"], from: Self.login)
        // Then it is not stored
        #expect(jar.storage.cookies?.isEmpty == true)
    }

    @Test func everyCookieOfAResponseIsStored() throws {
        // Given a response with two Set-Cookie fields, joined as URLSession joins them
        let (jar, _) = try Self.jar()
        let response = try #require(
            HTTPURLResponse(
                url: Self.login, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Set-Cookie": "a=1; Path=/; Expires=Wed, 01 Jan 2099 00:00:00 GMT, b=2; Path=/"]))
        // When the jar stores what it sets
        jar.store(from: response)
        // Then both cookies are sent, the older first
        #expect(try Self.field(jar, "http://example.com/") == "a=1; b=2")
    }
}
