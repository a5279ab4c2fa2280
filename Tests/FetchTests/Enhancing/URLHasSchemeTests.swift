import Foundation
import Testing

@testable import Fetch

@Suite struct URLHasSchemeTests {
    @Test(arguments: [
        "https://api.test/v1", "HTTP://api.test", "mailto:ada@example.com", "a+b-c.d:rest", "localhost:8080/path",
        "users/7", "/users/7", "//api.test/users", "?q=1", "#top", "users/7:8",
    ])
    func readsTheSchemeAsURLDoes(text: String) throws {
        // Given a URL made from the text
        let url = try #require(URL(string: text))

        // When its scheme is read from its text
        let found = url.hasScheme

        // Then it agrees with Foundation's parse
        #expect(found == (url.scheme != nil))
    }

    @Test func aURLRelativeToABaseHasTheBasesScheme() throws {
        // Given a relative URL made against an absolute base
        let url = try #require(URL(string: "users/7", relativeTo: URL(string: "https://api.test/v1/")))

        // When its scheme is read
        // Then the base's counts
        #expect(url.hasScheme == (url.scheme != nil))
        #expect(url.hasScheme)
    }
}
