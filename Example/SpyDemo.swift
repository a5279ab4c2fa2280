import Foundation
import Fetch
import FetchTesting

/// A ``SpyPerformer`` used the way a unit test uses it: script the answer, call, and check
/// the result on the very next line, because the spy answers before `perform` returns.
enum SpyDemo {
    /// Runs the check and returns what it found, one line per finding.
    static func run() throws -> [String] {
        // Given a spy scripted with one response
        let spy = SpyPerformer([try .json(Echo(args: ["q": "spy"], headers: [:]))])
        let result = ResultBox<Echo>()
        // When the code under test makes a callback-style call
        spy.perform(Search(baseURL: URL(string: "https://api.example.com")!, query: "spy", language: "Swift")) {
            result.set($0)
        }
        // Then the result is already there, and the request was recorded
        guard let echo = try result.value?.get() else { throw ExampleFailure("the spy did not answer at once") }
        let sent = spy.urlRequests.first??.url?.absoluteString ?? "nothing"
        return [
            "result before perform returned: q = \"\(echo.args["q"] ?? "")\"",
            "\(spy.calls.count) request recorded: GET \(sent)",
        ]
    }
}

/// Holds the result a `@Sendable` completion delivers.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: Result<Value, any Error>?

    var value: Result<Value, any Error>? { lock.withLock { stored } }

    func set(_ result: Result<Value, any Error>) { lock.withLock { stored = result } }
}

/// A failure of the example itself, with a message for the person running it.
struct ExampleFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
