import Foundation
import Testing

@testable import Fetch

/// The matching rules of RFC 6265 §5.1: domains, paths, the default path, IP addresses.
struct CookieRulesTests {
    @Test(arguments: [
        ("example.com", "example.com", true),
        ("www.example.com", "example.com", true),
        ("a.b.example.com", "example.com", true),
        ("badexample.com", "example.com", false),  // a suffix, not after a dot
        ("example.com", "www.example.com", false),  // a parent never matches its child
        ("127.0.0.1", "127.0.0.1", true),
        ("127.0.0.1", "0.0.1", false),  // an IP address matches only itself
        ("1.2.3.4", "3.4", false),
        ("::1", "::1", true),
    ])
    func domainMatching(host: String, domain: String, matches: Bool) {
        // Given a request host and a cookie domain
        // When they are compared
        // Then they match only as §5.1.3 says
        #expect(CookieRules.domainMatches(host, domain) == matches)
    }

    @Test(arguments: [
        ("/", "/", true),
        ("/admin", "/admin", true),
        ("/admin/users", "/admin", true),
        ("/admin/", "/admin", true),
        ("/administrator", "/admin", false),  // a prefix, not a directory
        ("/echo", "/admin", false),
        ("/admin/users", "/admin/", true),  // a cookie path ending with "/"
        ("/", "/admin", false),
        ("/ADMIN", "/admin", false),  // paths are case-sensitive
    ])
    func pathMatching(requestPath: String, cookiePath: String, matches: Bool) {
        // Given a request path and a cookie path
        // When they are compared
        // Then they match only as §5.1.4 says
        #expect(CookieRules.pathMatches(requestPath, cookiePath) == matches)
    }

    @Test(arguments: [
        ("http://example.com", "/"),
        ("http://example.com/", "/"),
        ("http://example.com/login", "/"),
        ("http://example.com/account/login", "/account"),
        ("http://example.com/a/b/", "/a/b"),
        ("http://example.com/a/b?x=/c/d", "/a"),  // the query is not the path
        ("http://example.com/a%2Fb/c", "/a%2Fb"),  // the path as sent
    ])
    func defaultPath(url: String, path: String) throws {
        // Given the URL of a response setting a cookie without Path
        let url = try #require(URL(string: url))
        // When the default path is taken
        // Then it is the URL's directory (§5.1.4)
        #expect(CookieRules.defaultPath(of: url) == path)
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("10.0.0.255", true), ("::1", true), ("fe80::1", true),
        ("example.com", false), ("1.2.3", false), ("1.2.3.4.example", false), ("256.1.1.1", false),
        ("localhost", false),
    ])
    func ipAddresses(host: String, isAddress: Bool) {
        // Given a host
        // When it is checked
        // Then addresses are told from names
        #expect(CookieRules.isIPAddress(host) == isAddress)
    }

    @Test(arguments: [
        ("http://WWW.Example.COM/", "www.example.com"),
        ("http://example.com./", "example.com"),
        ("http://[::1]:8080/", "::1"),
    ])
    func canonicalHosts(url: String, host: String) throws {
        // Given a URL
        let url = try #require(URL(string: url))
        // When its host is canonicalized
        // Then it is lowercase, without a trailing dot or brackets
        #expect(CookieRules.canonicalHost(of: url) == host)
    }
}
