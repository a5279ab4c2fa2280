// swift-format-ignore-file
// (This file mirrors README code blocks line for line, so the formatter leaves it alone.)
// The README's code as top-level code, the way a program's main.swift holds it: the quick
// start, the recommended stack and a download. Top-level code resolves overloads unlike a
// function body (a trailing closure once bound to a download's callback form here), so
// building this target proves the README's code means here what it says.
// `ReadmeSnippetsTests` checks that every block is here line for line. It is built, never run
// by the tests; run, it sends nothing unless given --send.
import Foundation
import Fetch
import FetchCaching

guard CommandLine.arguments.contains("--send") else {
    print("The README's code, compiled as top-level code; --send runs it against api.example.com.")
    exit(0)
}

// What the blocks assume: an app's error, its token store and auth service, a report.
enum AppError: Error { case signedOut }
struct Auth: Sendable { func refreshedToken() async throws -> String { "new-token" } }
struct GetReport: Request { var url: URL { URL(string: "https://api.example.com/report.pdf")! } }
let store = TokenStore("saved")
let auth = Auth()
let base = "https://api.example.com"
let reportURL = FileManager.default.temporaryDirectory.appendingPathComponent("report.pdf")

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

try await greet(using: Session())       // in main.swift, or any async context

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

let api = Session()
    .retrying(.exponential(maxAttempts: 3))               // transient failures, closest to the network
    .caching()                                            // stores final answers only
    .coalescing()                                         // identical calls in flight share one request
    .enhanced(by: BaseURL(base), BearerToken(store))      // every layer below sees the request as sent
    .refreshing(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
    .handlingErrors([StatusErrorHandler(401) { response, request in .replace(AppError.signedOut) }])
    .logging(.default)                                    // one line per call, as the caller made it

let user = try await api.perform(GetUser(id: 7))          // GET https://api.example.com/users/7

let report = try await api.download(GetReport(), to: .file(reportURL)) { progress in
    print(progress)                                       // "12.5 MB of 100.0 MB (12%)"
}
print(report.status, report.fileURL)                      // report.response has the headers

struct Timing: Layer {
    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let start = ContinuousClock.now
        return next.perform(request) { result in
            print("\(request.method.rawValue) \(request.url): \(ContinuousClock.now - start)")
            completion(result)
        }
    }
}

extension RequestPerforming {
    func timed() -> LayeredPerformer { layered(Timing()) }
}
