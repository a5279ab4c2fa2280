import Foundation
import Fetch

/// The example's calls, the same whether they go to a live server or to the offline spy.
struct Walkthrough {
    let api: any RequestPerforming
    let baseURL: URL

    /// Makes each call and prints what came back.
    /// - Throws: the first failure the example does not expect.
    func run() async throws {
        print("1. GET /get with a query holding '+' and '&' (a TypedRequest: no type annotation)")
        let echo = try await api.perform(Search(baseURL: baseURL, query: "a+b & c", language: "Swift"))
        print("   the server read q = \"\(echo.args["q"] ?? "")\", lang = \"\(echo.args["lang"] ?? "")\"")
        print("   and saw User-Agent: \(echo.headers["User-Agent"] ?? "none")")

        print("2. POST /post with a JSON body, parsed into a Decodable model")
        let ada = NewUser(name: "Ada Lovelace", languages: ["Swift", "Analytical Engine"])
        let created = try await api.perform(CreateUser(baseURL: baseURL, user: ada), as: Created.self)
        print("   the server read back: \(created.json.name), \(created.json.languages.joined(separator: ", "))")

        print("3. GET /status/404, a failure handled by matching the error's code")
        do {
            _ = try await api.perform(Status(baseURL: baseURL, code: 404))
            throw ExampleFailure("expected a 404")
        } catch let error as FetchError where error.code == .httpStatus && error.status == 404 {
            print("   not found, as expected: \(error)")
        }

        print("4. A SpyPerformer used the way a unit test would")
        for line in try SpyDemo.run() { print("   \(line)") }
    }
}
