import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

import TestSupport
@testable import Fetch

/// The `Cookie` field of one call on each hop: the caller's while on its origin, merged with
/// the store's for the hop's URL; a redirect's own cookies stored before the next hop.
struct CallCookiesTests {
    /// A jar over a new in-memory store holding `cookies`, set by `url`.
    static func jar(with cookies: [String], from url: String = "http://a.example/") throws -> CookieJar {
        let jar = CookieJar(try #require(URLSessionConfiguration.ephemeral.httpCookieStorage))
        jar.store(cookies, from: try #require(URL(string: url)))
        return jar
    }

    static func request(_ url: String, cookie: String? = nil) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.setValue(cookie, forHTTPHeaderField: "Cookie")
        return request
    }

    @Test func theCallersCookieGoesFirstAndWinsByName() throws {
        // Given a store with b and c, and a call that sets its own Cookie with b
        let jar = try Self.jar(with: ["b=stored", "c=3"])
        var request = try Self.request("http://a.example/", cookie: "mine=1; b=caller")
        // When the call takes its cookies
        _ = CallCookies(jar: jar, request: &request)
        // Then the caller's field is kept as written, and the store adds only c
        #expect(request.value(forHTTPHeaderField: "Cookie") == "mine=1; b=caller; c=3")
    }

    @Test func noCookieAnywhereMeansNoField() throws {
        // Given an empty store and a call without a Cookie
        let jar = try Self.jar(with: [])
        var request = try Self.request("http://a.example/")
        // When the call takes its cookies
        _ = CallCookies(jar: jar, request: &request)
        // Then no Cookie field is sent
        #expect(request.value(forHTTPHeaderField: "Cookie") == nil)
    }

    /// A 302 from `from` to `location` that sets `setCookie`, decided with `cookies` as a
    /// session does it: the redirect's cookies stored first. Returns the next hop, and the
    /// request the policy was shown.
    static func redirect(
        from current: URLRequest, to location: String, setting setCookie: String?, cookies: CallCookies
    ) throws -> (next: URLRequest, shown: URLRequest?) {
        var fields = ["Location": location]
        fields["Set-Cookie"] = setCookie
        let url = try #require(current.url)
        let response = try #require(
            HTTPURLResponse(url: url, statusCode: 302, httpVersion: "HTTP/1.1", headerFields: fields))
        cookies.jar.store(from: response)
        let shown = LockedBox<URLRequest?>(nil)
        let policy = RedirectPolicy { hop in
            shown.update { $0 = hop.to }
            return .follow
        }
        let step = RedirectStep.after(
            response, of: current, hop: 0, policy: policy, sensitiveHeaders: [], resendsFile: false,
            cookies: cookies)
        guard case .follow(let next) = step else { throw StepError.notFollowed("\(step)") }
        return (next, shown.value)
    }

    enum StepError: Error { case notFollowed(String) }

    @Test func aLoginsRedirectCarriesTheCookieItSet() throws {
        // Given a call with an empty store
        let jar = try Self.jar(with: [])
        var first = try Self.request("http://a.example/login")
        let cookies = CallCookies(jar: jar, request: &first)
        // When the login answers 302 with a session cookie
        let (next, shown) = try Self.redirect(
            from: first, to: "/home", setting: "session=abc; Path=/; HttpOnly", cookies: cookies)
        // Then the next hop carries it, and the policy saw the hop as it is sent
        #expect(next.value(forHTTPHeaderField: "Cookie") == "session=abc")
        #expect(shown?.value(forHTTPHeaderField: "Cookie") == "session=abc")
    }

    @Test func anotherHostGetsItsOwnCookiesNeverTheCallersOrTheFirstHosts() throws {
        // Given a store with a cookie for each host, and a call with its own Cookie
        let jar = try Self.jar(with: ["a=1"], from: "http://a.example/")
        jar.store(["b=2"], from: try #require(URL(string: "http://b.example/")))
        var first = try Self.request("http://a.example/", cookie: "mine=1")
        let cookies = CallCookies(jar: jar, request: &first)
        #expect(first.value(forHTTPHeaderField: "Cookie") == "mine=1; a=1")
        // When a.example redirects to b.example, then b.example back to a.example
        let (onB, _) = try Self.redirect(from: first, to: "http://b.example/", setting: nil, cookies: cookies)
        let (backOnA, _) = try Self.redirect(from: onB, to: "http://a.example/", setting: nil, cookies: cookies)
        // Then b.example gets its own cookie only, and back on a.example the caller's is gone for good
        #expect(onB.value(forHTTPHeaderField: "Cookie") == "b=2")
        #expect(backOnA.value(forHTTPHeaderField: "Cookie") == "a=1")
    }

    @Test func aSameOriginHopKeepsTheCallersCookieAndRecomputesTheStores() throws {
        // Given a call with its own Cookie, and a store cookie for /a only
        let jar = try Self.jar(with: ["inA=1; Path=/a"])
        var first = try Self.request("http://a.example/a/page", cookie: "mine=1")
        let cookies = CallCookies(jar: jar, request: &first)
        #expect(first.value(forHTTPHeaderField: "Cookie") == "mine=1; inA=1")
        // When it is redirected to /b on the same origin
        let (next, _) = try Self.redirect(from: first, to: "/b", setting: nil, cookies: cookies)
        // Then the caller's Cookie stays, and the /a cookie does not follow
        #expect(next.value(forHTTPHeaderField: "Cookie") == "mine=1")
    }
}
