import Foundation
import Testing
import Fetch

struct QueryEncoderTests {
    @Test(arguments: [
        ("+", "%2B"), ("&", "%26"), ("=", "%3D"), ("?", "%3F"), ("/", "%2F"), (";", "%3B"), ("#", "%23"),
        (" ", "%20"), ("é", "%C3%A9"), ("😀", "%F0%9F%98%80"), ("'", "%27"), ("%", "%25"),
        ("aZ09-._~", "aZ09-._~"),
    ])
    func everythingButUnreservedIsEncoded(raw: String, encoded: String) {
        // Given a character a query value may hold
        // When it is encoded
        // Then only RFC 3986's unreserved characters stay as they are
        #expect(QueryEncoder.encode(raw) == encoded)
    }

    @Test func itemsBecomeNameValuePairs() {
        // Given items, one without a value
        let items = [
            URLQueryItem(name: "q", value: "a+b"), URLQueryItem(name: "flag", value: nil),
            URLQueryItem(name: "a b", value: ""),
        ]
        // When encoded as a query
        // Then pairs are joined by & and a nil value sends the name alone
        #expect(QueryEncoder.query(items) == "q=a%2Bb&flag&a%20b=")
    }

    @Test func appendingKeepsTheExistingQueryAndFragment() throws {
        // Given a URL with a query and a fragment
        let url = URL(string: "https://h.example/p?x=1%2B1#top")!
        // When items are appended
        let result = try QueryEncoder.appending([URLQueryItem(name: "y", value: "2/3")], to: url)
        // Then the old query stays as it was, the new item follows, the fragment is kept
        #expect(result.absoluteString == "https://h.example/p?x=1%2B1&y=2%2F3#top")
    }

    @Test func appendingNothingLeavesTheURLAlone() throws {
        // Given a URL
        let url = URL(string: "https://h.example/p?keep=me")!
        // When no items are appended
        // Then the URL is unchanged
        #expect(try QueryEncoder.appending([], to: url) == url)
    }

    @Test func aRelativeURLKeepsItsBase() throws {
        // Given a URL relative to a base
        let url = URL(string: "accounts", relativeTo: URL(string: "https://h.example/api/")!)!
        // When items are appended
        let result = try QueryEncoder.appending([URLQueryItem(name: "page", value: "2")], to: url)
        // Then the result still resolves against the base
        #expect(result.absoluteString == "https://h.example/api/accounts?page=2")
    }
}
