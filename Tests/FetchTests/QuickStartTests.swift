// swift-format-ignore-file
// (This file mirrors README code blocks line for line, so the formatter leaves it alone.)
// The README's quick start, kept here so it provably compiles and works. Keep the two in
// step: `readmeQuickStartMatchesThisFile` checks that every line of the README's code is
// here, and every line from the first import to "Not in the README" is there.
import Foundation
import Fetch
import Testing
import FetchTesting

struct User: Codable, Parsable {          // a model: a Decodable type only declares Parsable
    let id: Int
    let name: String
}

struct GetUser: TypedRequest {            // a request: one small value per endpoint
    typealias Output = User               // the model it returns
    let id: Int
    var url: URL { URL(string: "https://api.example.com/users/\(id)")! }
}

func greet(using api: some RequestPerforming) async throws {
    // A callback call: the completion runs exactly once (with Session, on its queue, never the main one).
    api.perform(GetUser(id: 7)) { result in
        switch result {
        case .success(let user): print("Hello, \(user.name)")
        case .failure(let error): print(error)   // method, URL, what went wrong; then the response, if any
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

// MARK: - Not in the README

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

/// README lines that only make sense in an app: here the test target is the app.
private let appOnlyReadmeLines: Set<String> = [
    "try await greet(using: Session())       // in main.swift, or any async context",
    "@testable import MyApp    // the app module that defines User, GetUser and greet",
]

@Test func readmeQuickStartMatchesThisFile() throws {
    // Given the code blocks of the README's quick start, and the mirrored part of this file
    let here = URL(fileURLWithPath: #filePath)
    let readme = try String(contentsOf: here.appendingPathComponent("../../../README.md").standardized, encoding: .utf8)
    let section = try #require(readme.components(separatedBy: "\n## Quick start\n").dropFirst().first)
        .components(separatedBy: "\n## ")[0]
    let readmeLines = codeLines(section.components(separatedBy: "```").enumerated()
        .filter { $0.offset % 2 == 1 }.map { $0.element.replacingOccurrences(of: "swift\n", with: "") }
        .joined(separator: "\n"))
    let source = try String(contentsOf: here, encoding: .utf8)
    let start = try #require(source.range(of: "\nimport Foundation\n"))
    let end = try #require(source.range(of: "// MARK: - Not in the README"))
    let mirrored = codeLines(String(source[start.lowerBound..<end.lowerBound]))
    // When they are compared line by line
    // Then each holds the other's lines, but for the app-only ones
    #expect(!readmeLines.isEmpty)
    #expect(readmeLines.subtracting(mirrored) == appOnlyReadmeLines)
    #expect(mirrored.subtracting(readmeLines) == [])
}

/// The non-blank lines of `code`, without their indentation.
private func codeLines(_ code: String) -> Set<String> {
    Set(code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
}
