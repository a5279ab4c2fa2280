// This file imports Fetch and no Foundation module: Fetch re-exports Foundation, and on
// Linux FoundationNetworking (where URLRequest lives), so an app's enhancer compiles with
// `import Fetch` alone on every platform.
import Testing
import Fetch
import FetchTesting

/// An app's own enhancer, written against `URLRequest`.
struct RequestStamp: Enhancer {
    func enhance(_ urlRequest: inout URLRequest, for request: any Request) throws {
        urlRequest.setValue("stamped", forHTTPHeaderField: "X-Stamp")
    }
}

@Suite struct ImportFetchOnlyTests {
    @Test func aCustomEnhancerNeedsOnlyImportFetch() throws {
        // Given the app's enhancer over a spy
        let spy = SpyPerformer([.status(200)])
        let api: any RequestPerforming = spy.enhanced(by: RequestStamp())

        // When a call is made
        let completions = Changes()
        api.perform(BasicRequest(url: URL(string: "https://api.example.com/a")!)) { _ in completions.append(true) }

        // Then the request went out with the enhancer's header
        #expect(completions.values == [true])
        #expect(try spy.sent(0).header("X-Stamp") == "stamped")
    }
}
