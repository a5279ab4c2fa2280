import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct BaseURLTests {
    /// The URL the spy saw for `request` below `BaseURL(base)`, or the error.
    private func sent(_ base: String, _ request: any Request) -> Result<String, FetchError> {
        let spy = SpyPerformer([.status(200)])
        let result = performNow(spy.enhanced(by: BaseURL(base)), request)
        if let error = fetchError(result) { return .failure(error) }
        return .success(spy.urlRequests.first??.url?.absoluteString ?? "none")
    }

    @Test(arguments: [
        ("https://api.test/v1", "users/7"), ("https://api.test/v1/", "/users/7"), ("https://api.test/v1", "/users/7"),
        ("https://api.test/v1//", "users/7"),
    ])
    func pathsJoinWithOneSlash(base: String, path: String) throws {
        // Given a base URL with a path and a relative request URL
        // When the request is sent
        let url = try sent(base, get(path)).get()

        // Then the paths are joined with exactly one slash
        #expect(url == "https://api.test/v1/users/7")
    }

    @Test func queryItemsAndQueriesAreKept() throws {
        // Given a relative URL with a query and query items
        let request = BasicRequest(
            url: URL(string: "search?q=a")!, queryItems: [URLQueryItem(name: "page", value: "2")])

        // When it is sent
        let url = try sent("https://api.test", request).get()

        // Then both survive
        #expect(url == "https://api.test/search?q=a&page=2")
    }

    @Test func absoluteURLsAreLeftAlone() throws {
        // Given an absolute request URL
        // When it is sent
        let url = try sent("https://api.test", get("https://other.test/x")).get()

        // Then it is unchanged
        #expect(url == "https://other.test/x")
    }

    @Test func aRequestCanNameAnotherBaseURLOrOptOut() throws {
        // Given one request overriding the base URL and one opting out
        var override = RequestOptions()
        override.baseURL = URL(string: "https://uploads.test/")
        var optOut = RequestOptions()
        optOut.skipsBaseURL = true

        // When each is sent
        let overridden = sent("https://api.test", get("files", options: override))
        let skipped = sent("https://api.test", get("files", options: optOut))

        // Then the override wins, and the opted-out URL stays relative: the spy sees it as is,
        // or refuses it as Session does a relative URL, naming it unchanged
        #expect(try overridden.get() == "https://uploads.test/files")
        switch skipped {
        case .success(let url):
            #expect(url == "files")
        case .failure(let error):
            #expect(error.code == .invalidRequest)
            #expect(error.url?.absoluteString == "files")
        }
    }

    @Test func theOptionsModifierMarksOneCall() throws {
        // Given a request marked with `with(_:_:)`
        let request = get("files").with(\.baseURL, URL(string: "https://cdn.test"))

        // When it is sent
        let url = sent("https://api.test", request)

        // Then the marker was read
        #expect(try url.get() == "https://cdn.test/files")
    }

    @Test(arguments: ["not a url", "/just/a/path", "https://api.test/?key=1"])
    func anUnusableBaseURLFailsTheCallNamingIt(base: String) {
        // Given a base URL that cannot be used
        // When a request is sent
        let result = sent(base, get("users"))

        // Then the call fails with invalidRequest naming BaseURL
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(error.code == .invalidRequest)
        #expect(error.layer == "BaseURL")
    }
}
