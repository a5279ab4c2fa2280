import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct SpyInspectionTests {
    struct NewUser: Codable, Sendable, Equatable {
        var name: String
        var admin: Bool
    }

    @Test func theNthRequestsPartsReadWithoutOptionals() throws {
        // Given a stack with a base URL and a token over a spy
        let spy = SpyPerformer([.status(201), .status(200)])
        let api = spy.enhanced(by: BaseURL("https://api.example.com"), BearerToken(TokenStore("abc")))

        // When a POST with a JSON body and a GET with a query are performed
        _ = performNow(
            api,
            BasicRequest(
                url: URL(string: "users")!, method: .post,
                body: .json(NewUser(name: "Ada", admin: false))))
        _ = performNow(
            api, BasicRequest(url: URL(string: "users")!, queryItems: [URLQueryItem(name: "page", value: "a b")]))

        // Then each request's method, path, query, header and JSON body can be asserted directly
        #expect(spy.sentRequests.count == 2)
        #expect(try spy.sent(0).method == .post)
        #expect(try spy.sent(0).path == "/users")
        #expect(try spy.sent(0).header("authorization") == "Bearer abc")
        #expect(try spy.sent(0).jsonBody == SentRequest.json(#"{ "admin": false, "name": "Ada" }"#))
        #expect(try spy.sent(0).jsonBody != SentRequest.json(#"{"admin": 0, "name": "Ada"}"#))
        #expect(try spy.sent(0).json(as: NewUser.self) == NewUser(name: "Ada", admin: false))
        #expect(try spy.sent(1).queryItem("page") == "a b")
        #expect(try spy.sent(1).url.absoluteString == "https://api.example.com/users?page=a%20b")
    }

    @Test func askingForARequestThatWasNotSentSaysHowManyWere() throws {
        // Given a spy that was sent one request
        let spy = SpyPerformer([.status(200)])
        _ = performNow(spy, get("https://api.example.com/a"))

        // When the third is asked for
        let error = #expect(throws: SentRequest.Missing.self) { try spy.sent(2) }

        // Then the error says how many there were
        #expect(error?.description == "the spy was sent 1 request(s); there is no request 2 (counting from 0)")
    }

    @Test func routesAnswerByMethodAndPathAsSent() throws {
        // Given routes for a GET and a DELETE of one path, under a base URL
        let spy = SpyPerformer(routes: [
            .init(.get, "/users/7", .json(raw: #"{"id": 7, "name": "Ada", "extra": [1, "two", null]}"#)),
            .init(.delete, "/users/7", .status(204)),
        ])
        let api = spy.enhanced(by: BaseURL("https://api.example.com/"))

        // When both are called twice, and a path no route names once
        let get1 = performNow(api, BasicRequest(url: URL(string: "users/7")!))
        let get2 = performNow(api, BasicRequest(url: URL(string: "users/7")!))
        let delete = performNow(api, BasicRequest(url: URL(string: "users/7")!, method: .delete))
        let other = performNow(api, BasicRequest(url: URL(string: "users/8")!))

        // Then each got its route's answer, every time, and the unknown path failed
        #expect(try get1?.get().parse(as: Account.self) == Account(id: 7, name: "Ada"))
        #expect(try get2?.get().status == 200)
        #expect(try delete?.get().status == 204)
        #expect(try get1?.get().headers["Content-Type"] == "application/json")
        guard case .failure(let error) = other else {
            Issue.record("an unrouted call succeeded")
            return
        }
        #expect(error is SpyPerformer.Unanswered)
    }

    @Test func aRelativeURLWithoutABaseURLNamesTheFix() {
        // Given a spy and no BaseURL above it
        let spy = SpyPerformer([.status(200)])

        // When a relative URL is performed
        let error = fetchError(performNow(spy, BasicRequest(url: URL(string: "status/404")!)))

        // Then the error says the URL is relative and how to fix it
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains(#""status/404" is relative: add a BaseURL enhancer"#) == true)
    }
}
