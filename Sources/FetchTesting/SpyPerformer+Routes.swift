import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

extension SpyPerformer {
    /// One scripted answer for every call with a method and a path.
    public struct Route: Sendable {
        /// The method to match.
        public let method: HTTPMethod
        /// The path to match, as sent (after a `BaseURL` completed it): `/users/7`.
        public let path: String
        /// The answer, given to every call that matches.
        public let answer: Answer

        /// Answers `method` calls to `path` with `answer`.
        public init(_ method: HTTPMethod, _ path: String, _ answer: Answer) {
            self.method = method
            self.path = path
            self.answer = answer
        }
    }

    /// Makes a spy that answers from `answers` in order first, then by method and path.
    ///
    /// A route answers every call that matches it, every time; the path is that of the URL as
    /// sent, so a relative request under a `BaseURL` matches its full path. A call no route
    /// matches fails with ``SpyPerformer/Unanswered``.
    public convenience init(_ answers: [Answer] = [], routes: [Route]) {
        self.init(answers) { request in
            // The call was built and checked already; this builds it again to see the path as sent.
            guard let sent = try? request.makeURLRequest(), let url = sent.url else { return nil }
            let method = HTTPMethod(rawValue: sent.httpMethod ?? "GET")
            return routes.first { $0.method == method && $0.path == url.path }?.answer
        }
    }
}

extension SpyPerformer.Answer {
    /// Answers with `text` as the JSON body, as written, with `Content-Type: application/json`:
    /// for a hand-written fixture that no `Encodable` describes. The text is not checked, so a
    /// test can send a body that does not decode.
    public static func json(raw text: String, status: Int = 200, headers: HTTPHeaders = [:]) -> SpyPerformer.Answer {
        .response(Response.json(raw: text, status: status, headers: headers))
    }
}
