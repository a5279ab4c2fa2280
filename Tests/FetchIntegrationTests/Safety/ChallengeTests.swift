import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport

/// A 401 completes at once as the caller's response, with its head and body, whatever its
/// `WWW-Authenticate` says and whatever kind of call got it; no credential is ever sent.
@Suite(.loopbackServers)
struct ChallengeTests {
    /// The `WWW-Authenticate` fields of one 401: a query for the fault server's /challenge.
    struct Challenge: CustomTestStringConvertible, Sendable {
        let query: String
        let testDescription: String
    }

    static let challenges = [
        Challenge(query: "schemes=basic", testDescription: "Basic"),
        Challenge(query: "schemes=digest", testDescription: "Digest"),
        Challenge(query: "schemes=bearer", testDescription: "Bearer"),
        Challenge(query: "schemes=basic,bearer", testDescription: "Basic and Bearer, two fields"),
        Challenge(query: "schemes=bearer,basic&joined=1", testDescription: "Bearer then Basic, one field"),
        Challenge(query: "schemes=digest,basic", testDescription: "Digest and Basic, two fields"),
    ]

    /// How a call is made.
    enum Kind: String, CaseIterable, Sendable {
        case callback, async, stream, download, upload
    }

    /// A session whose requests fail after 10 s (40 s under the thread sanitizer), so a call
    /// left waiting on its challenge fails with `deadlineExceeded` instead of the 401. No
    /// tighter bound: while the whole suite runs, URLSession's one work queue is busy with
    /// other tests' transfers, and a 401 answered at once took 3.3 s to complete.
    static func session() -> Session {
        var configuration = Session.Configuration()
        configuration.deadline = TimedTests.FaultTests.bound(10)
        return Session(configuration: configuration)
    }

    /// Makes the call `kind` to `url` and returns the response it ended with: the result of
    /// a call that gives any status, or the response a `httpStatus` error carries.
    static func response(of kind: Kind, to url: URL, on session: Session) async throws -> Response {
        let request = BasicRequest(url: url)
        switch kind {
        case .callback:
            return try await within("the call's completion") {
                try await withCheckedThrowingContinuation { continuation in
                    session.perform(request) { continuation.resume(with: $0) }
                }
            }
        case .async:
            return try await session.response(for: request)
        case .stream:
            return try await Self.statusError { _ = try await session.stream(request) }
        case .download:
            let folder = try ScratchFolder()
            let destination = folder.file("challenged.bin")
            let response = try await Self.statusError {
                _ = try await session.download(request, to: .file(destination))
            }
            #expect(try folder.contents().isEmpty)
            return response
        case .upload:
            let post = BasicRequest(url: url, method: .post, body: .data(Data("credentials?".utf8)))
            return try await session.upload(post)
        }
    }

    /// The response of the `httpStatus` error `call` throws.
    static func statusError(_ call: () async throws -> Void) async throws -> Response {
        let error = await #expect(throws: FetchError.self) { try await call() }
        #expect(error?.code == .httpStatus)
        return try #require(error?.response)
    }

    @Test(arguments: challenges, Kind.allCases)
    func aChallengeCompletesAtOnceWithThe401(challenge: Challenge, kind: Kind) async throws {
        // Given a server that answers 401 with a challenge and the body "denied"
        let servers = try LoopbackServers.require()
        let tag = uniqueTag()
        let url = servers.faults.url("/challenge?\(challenge.query)&tag=\(tag)")
        // When the call is made
        let response = try await Self.response(of: kind, to: url, on: Self.session())
        // Then it ends with the 401, its challenge and its body, before the deadline
        #expect(response.status == 401)
        #expect(response.headers["WWW-Authenticate"] != nil)
        #expect(response.body == Data("denied".utf8))
        // And the server got one request, with no credentials
        let seen = try await servers.faults.seen(tag: tag)
        #expect(seen.count == 1)
        #expect(seen.first?.header("authorization") == nil)
    }

    @Test func aChallengedCallLeavesTheSessionUsable() async throws {
        // Given a session that got a Basic challenge
        let servers = try LoopbackServers.require()
        let session = Self.session()
        _ = try await session.response(for: BasicRequest(url: servers.faults.url("/challenge?schemes=basic")))
        // When it sends five more requests, the next one at once
        for _ in 0..<5 {
            let echoed = try await session.perform(
                BasicRequest(url: servers.faults.url("/echo")), as: EchoedRequest.self)
            // Then each is answered
            #expect(echoed.method == "GET")
        }
    }
}
