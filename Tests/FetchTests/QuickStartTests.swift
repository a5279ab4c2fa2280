import Foundation
import Testing
import Fetch
import FetchTesting

// The README's quick start, kept here so it provably compiles and works. Keep the two in step.

struct User: Codable, Parsable {          // a model: Decodable types are Parsable for free
    let id: Int
    let name: String
}

struct GetUser: TypedRequest {            // a request: one small value per endpoint
    typealias Output = User               // the model it returns
    let id: Int
    var url: URL { URL(string: "https://api.example.com/users/\(id)")! }
}

func greet(using api: some RequestPerforming) async throws {
    // A callback call: the completion runs exactly once, never on the main queue.
    api.perform(GetUser(id: 7)) { result in
        switch result {
        case .success(let user): print("Hello, \(user.name)")
        case .failure(let error): print(error)   // one line: method, URL, what went wrong
        }
    }

    // An async call: no type annotation; cancelling the Task cancels the request.
    let user = try await api.perform(GetUser(id: 7))
    print("Hello again, \(user.name)")
}

@Test func greetAsksForUserSeven() async throws {
    // Given a spy that answers both calls with Ada
    let ada = User(id: 7, name: "Ada")
    let spy = SpyPerformer([try .json(ada), try .json(ada)])

    // When the code under test runs against it
    try await greet(using: spy)

    // Then it asked for user 7, twice
    #expect(spy.requests.map(\.url.path) == ["/users/7", "/users/7"])
}

func showUser(using api: some RequestPerforming) async throws {
    do {
        let user = try await api.perform(GetUser(id: 7))
        print(user.name)
    } catch let error as FetchError where error.code == .httpStatus && error.status == 404 {
        print("no such user")      // error.response holds the status, headers and body
    } catch let error as FetchError where error.code == .notConnected {
        print("offline")
    }
}

@Test func showUserHandlesNotFoundAndOffline() async throws {
    // Given a spy answering 404, then failing as offline, then with a timeout
    let spy = SpyPerformer([.status(404), .failure(.notConnected), .failure(.timedOut)])

    // When the code under test runs three times
    try await showUser(using: spy)
    try await showUser(using: spy)

    // Then it handled the first two, and the third error reaches its caller
    let error = await #expect(throws: FetchError.self) { try await showUser(using: spy) }
    #expect(error?.code == .timedOut)
    #expect(spy.requests.count == 3)
}
