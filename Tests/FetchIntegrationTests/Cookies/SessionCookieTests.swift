import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchCaching

/// A session with a cookie store sends, on every hop, what RFC 6265 says: domain and path
/// match, `Secure` only over https, expiry honoured, and a redirect's cookies on the next hop.
@Suite(.loopbackServers)
struct SessionCookieTests {
    /// A session over a new in-memory cookie store, and the store.
    static func session() throws -> (Session, HTTPCookieStorage) {
        let storage = try #require(URLSessionConfiguration.ephemeral.httpCookieStorage)
        var configuration = Session.Configuration()
        configuration.cookieStorage = storage
        return (Session(configuration: configuration), storage)
    }

    /// Has the fault server at `host` set `cookies`, each in its own Set-Cookie field.
    static func set(_ cookies: [String], with session: some RequestPerforming, host: String = "127.0.0.1") async throws
    {
        let servers = try LoopbackServers.require()
        let request = BasicRequest(
            url: servers.faults.url("/cookies/set", host: host),
            queryItems: [URLQueryItem(name: "cookies", value: cookies.joined(separator: "|"))])
        let response = try await session.response(for: request)
        #expect(response.status == 200)
    }

    /// The Cookie field the fault server at `host` received at `path`; empty for none.
    static func echo(
        _ path: String = "/cookies/echo", with session: some RequestPerforming, host: String = "127.0.0.1",
        headers: HTTPHeaders = [:]
    ) async throws -> String {
        let servers = try LoopbackServers.require()
        let request = BasicRequest(url: servers.faults.url(path, host: host), headers: headers)
        return String(decoding: try await session.response(for: request).body, as: UTF8.self)
    }

    @Test func aSecureCookieIsKeptButNotSentOverPlainHTTP() async throws {
        // Given a session that received a Secure cookie and a plain one over http
        let (session, storage) = try Self.session()
        try await Self.set(["secureonly=s1; Secure; Path=/", "plain=p1; Path=/"], with: session)
        // When it sends another request over http
        let sent = try await Self.echo(with: session)
        // Then only the plain cookie goes; the Secure one waits in the store for https
        #expect(sent == "plain=p1")
        #expect(storage.cookies?.contains { $0.name == "secureonly" && $0.isSecure } == true)
    }

    @Test func aPathCookieGoesOnlyBelowItsPathLongestPathFirst() async throws {
        // Given cookies for /, /cookies and /cookies/admin, set in that order
        let (session, _) = try Self.session()
        try await Self.set(
            ["plain=p1; Path=/", "mid=m1; Path=/cookies", "adminonly=a1; Path=/cookies/admin"], with: session)
        // When requests go outside and inside /cookies/admin
        let outside = try await Self.echo("/cookies/echo", with: session)
        let inside = try await Self.echo("/cookies/admin/echo", with: session)
        // Then the admin cookie goes only inside, and longer paths go first
        #expect(outside == "mid=m1; plain=p1")
        #expect(inside == "adminonly=a1; mid=m1; plain=p1")
    }

    @Test func aCookieWithoutPathGoesOnlyBelowTheDirectoryThatSetIt() async throws {
        // Given a cookie without Path set by /cookies/set: its path is /cookies
        let (session, _) = try Self.session()
        try await Self.set(["d=1"], with: session)
        // When requests go below /cookies and elsewhere
        let below = try await Self.echo("/cookies/echo", with: session)
        let elsewhere = try await session.perform(
            BasicRequest(url: try LoopbackServers.require().faults.url("/echo")), as: EchoedRequest.self)
        // Then only the one below /cookies carries it
        #expect(below == "d=1")
        #expect(elsewhere.header("cookie") == nil)
    }

    @Test func cookiesStayOnTheirHostAndAForeignDomainIsRefused() async throws {
        // Given cookies set by 127.0.0.1: host-only, Domain=127.0.0.1, and Domain=example.com
        let (session, storage) = try Self.session()
        try await Self.set(
            ["host=1; Path=/", "ip=1; Domain=127.0.0.1; Path=/", "foreign=1; Domain=example.com; Path=/"],
            with: session)
        // When requests go to 127.0.0.1 and to localhost (the same server, another host)
        let sameHost = try await Self.echo(with: session)
        let otherHost = try await Self.echo(with: session, host: "localhost")
        // Then 127.0.0.1 gets its two, localhost none, and the foreign one was never stored
        #expect(sameHost == "host=1; ip=1")
        #expect(otherHost == "")
        #expect(storage.cookies?.contains { $0.name == "foreign" } == false)
    }

    @Test func maxAgeWinsAndAZeroMaxAgeDeletes() async throws {
        // Given a cookie, and one whose Expires has passed but whose Max-Age has not
        let (session, _) = try Self.session()
        try await Self.set(
            ["gone=1; Path=/", "kept=1; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=600"], with: session)
        // When the server sets the first again with Max-Age=0
        try await Self.set(["gone=2; Path=/; Max-Age=0"], with: session)
        // Then only the second is sent
        #expect(try await Self.echo(with: session) == "kept=1")
    }

    @Test func anHttpOnlyCookieIsKeptWithItsFlagAndSent() async throws {
        // Given a session that received an HttpOnly cookie
        let (session, storage) = try Self.session()
        try await Self.set(["h=1; HttpOnly; Path=/"], with: session)
        // When it sends another request
        let sent = try await Self.echo(with: session)
        // Then the cookie goes, and the store keeps its flag
        #expect(sent == "h=1")
        #expect(storage.cookies?.first { $0.name == "h" }?.isHTTPOnly == true)
    }

    @Test func aLoginThatSetsItsCookieOnA302SendsItOnTheNextHop() async throws {
        // Given a session with an empty store
        let (session, _) = try Self.session()
        let servers = try LoopbackServers.require()
        // When a login answers 302 with a session cookie, redirecting to a page that echoes it
        let response = try await session.response(for: BasicRequest(url: servers.faults.url("/cookies/login")))
        // Then the next hop carried the cookie, and later calls carry it too
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "session=abc")
        #expect(try await Self.echo(with: session) == "session=abc")
    }

    @Test func aRedirectToAnotherHostCarriesThatHostsCookiesOnly() async throws {
        // Given a store with a cookie for localhost, and a login on 127.0.0.1 that
        // redirects to localhost
        let (session, _) = try Self.session()
        let servers = try LoopbackServers.require()
        try await Self.set(["mine=localhost; Path=/"], with: session, host: "localhost")
        let target = servers.faults.url("/cookies/echo", host: "localhost")
        let login = BasicRequest(
            url: servers.faults.url("/cookies/login"),
            queryItems: [URLQueryItem(name: "to", value: target.absoluteString)])
        // When the login is followed
        let response = try await session.response(for: login)
        // Then localhost got its own cookie, not the session cookie of 127.0.0.1
        #expect(String(decoding: response.body, as: UTF8.self) == "mine=localhost")
    }

    @Test func withoutAStoreNoCookieFollowsARedirect() async throws {
        // Given a session without a cookie store
        let servers = try LoopbackServers.require()
        let session = Session()
        // When a login sets its cookie on a 302
        let response = try await session.response(for: BasicRequest(url: servers.faults.url("/cookies/login")))
        // Then the next hop carries no cookie
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
    }

    @Test func theCallersCookieIsKeptAndTheStoreAddsTheRest() async throws {
        // Given a store with plain and other
        let (session, _) = try Self.session()
        try await Self.set(["plain=p1; Path=/", "other=o; Path=/"], with: session)
        // When a call sets its own Cookie with plain
        let sent = try await Self.echo(with: session, headers: ["Cookie": "mine=1; plain=caller"])
        // Then the caller's field goes first as written, and the store adds only other
        #expect(sent == "mine=1; plain=caller; other=o")
    }

    /// A call that opts out of cookie handling on its `URLRequest`.
    struct WithoutCookies: Request {
        var url: URL
        func adjust(_ urlRequest: inout URLRequest) throws { urlRequest.httpShouldHandleCookies = false }
    }

    @Test func aCallThatOptsOutNeitherSendsNorStoresTheStoresCookies() async throws {
        // Given a store with a cookie for the server
        let (session, storage) = try Self.session()
        let servers = try LoopbackServers.require()
        try await Self.set(["kept=1; Path=/"], with: session)
        // When calls with httpShouldHandleCookies = false echo the Cookie field and set a cookie
        let echoed = try await session.response(for: WithoutCookies(url: servers.faults.url("/cookies/echo")))
        let setting = servers.faults.url("/cookies/set?cookies=ignored%3D1%3B%20Path%3D%2F")
        _ = try await session.response(for: WithoutCookies(url: setting))
        // Then the first carried no cookie, and the second stored none
        #expect(echoed.body.isEmpty)
        #expect(storage.cookies?.map(\.name) == ["kept"])
    }

    @Test func aResponseSentWithTheStoresCookiesIsNotCached() async throws {
        // Given a caching layer over a session whose store holds a cookie for the server
        let (session, _) = try Self.session()
        let servers = try LoopbackServers.require()
        let api = session.caching()
        try await Self.set(["c=1; Path=/"], with: session)
        let tag = uniqueTag()
        let resource = BasicRequest(url: servers.faults.url("/resource?tag=\(tag)"))
        // When a cacheable resource is asked for twice
        _ = try await api.response(for: resource)
        _ = try await api.response(for: resource)
        // Then both went to the server: the cookie was added below the cache, which cannot
        // match a later call to it, so the response was not stored
        #expect(try await servers.faults.seen(tag: tag).count == 2)
        // And without a cookie for the server the same layer does store it
        let (bare, _) = try Self.session()
        let cached = bare.caching()
        let other = uniqueTag()
        let again = BasicRequest(url: servers.faults.url("/resource?tag=\(other)"))
        _ = try await cached.response(for: again)
        _ = try await cached.response(for: again)
        #expect(try await servers.faults.seen(tag: other).count == 1)
    }
}
