import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport

/// A session runs at most `maximumConnectionsPerHost` requests at once per origin and
/// queues the others: queued requests can be cancelled and run out of time like running
/// ones, and a request keeps its slot through its redirects.
@Suite(.loopbackServers)
struct OriginLimitTests {
    /// What each completion reported, in the order they arrived.
    final class Finishes: @unchecked Sendable {
        // `lock` guards `entries`.
        private let lock = NSLock()
        private var entries: [(name: String, result: Result<Void, FetchError>)] = []

        /// A completion for the call `name`.
        func completion<Value>(_ name: String) -> @Sendable (Result<Value, any Error>) -> Void {
            { result in
                let outcome = result.map { _ in () }.mapError { error in
                    error as? FetchError ?? FetchError(.invalidRequest, reason: "not a FetchError: \(error)")
                }
                self.lock.withLock { self.entries.append((name, outcome)) }
            }
        }

        var names: [String] { lock.withLock { entries.map(\.name) } }

        /// The error code `name` failed with, `"ok"` when it succeeded, `nil` before it completed.
        func outcome(_ name: String) -> String? {
            lock.withLock {
                entries.first { $0.name == name }.map { entry in
                    switch entry.result {
                    case .success: "ok"
                    case .failure(let error): error.code.rawValue
                    }
                }
            }
        }

        /// Waits until `count` completions have arrived.
        /// - Throws: ``DidNotFinish`` when they have not within 20 s.
        func wait(for count: Int, file: StaticString = #filePath, line: UInt = #line) async throws {
            try await within(.seconds(20), "\(count) completions", file: file, line: line) {
                while self.lock.withLock({ self.entries.count }) < count {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
        }
    }

    /// A session that runs `limit` requests at once per origin.
    static func session(limit: Int) -> Session {
        var configuration = Session.Configuration()
        configuration.maximumConnectionsPerHost = limit
        // One completion at a time, in the order requests finish, so tests can compare it
        configuration.completionQueue = DispatchQueue(label: "OriginLimitTests.completions")
        return Session(configuration: configuration)
    }

    /// A session running one request at a time, its slot taken by a request to the fault
    /// server's `/gate`, which answers when the test opens it, and whose completion is
    /// recorded as `"gate"`.
    struct OneSlotTaken {
        let servers: LoopbackServers
        let session = OriginLimitTests.session(limit: 1)
        let finishes = Finishes()
        /// The tag of ``echo``, to ask the server whether it saw it.
        let tag = uniqueTag()
        private let gateTag = uniqueTag()

        init() throws {
            servers = try LoopbackServers.require()
            session.perform(
                BasicRequest(url: servers.faults.url("/gate?tag=\(gateTag)")), completion: finishes.completion("gate"))
        }

        /// A request the server logs under ``tag``.
        var echo: BasicRequest { BasicRequest(url: servers.faults.url("/echo?tag=\(tag)")) }

        /// Lets the request holding the slot answer.
        func openGate() async throws { try await servers.faults.openGate(tag: gateTag) }

        /// Queues a request behind everything queued so far, recorded as `"last"`: the one slot
        /// lets it in only after every request queued before it has ended.
        func queueLast() {
            session.perform(
                BasicRequest(url: servers.faults.url("/status?code=200")), completion: finishes.completion("last"))
        }

        /// Whether the server never saw a request with ``tag``.
        func serverSawNoEcho() async throws -> Bool {
            try await servers.faults.seen(tag: tag).isEmpty
        }
    }

    @Test func byDefaultAtMostSixOfSixteenRunAtOnce() async throws {
        // Given a default session and 16 slow requests to one server
        let servers = try LoopbackServers.require()
        let session = Session()
        let group = uniqueTag()
        let request = BasicRequest(url: servers.faults.url("/slow?seconds=0.3&group=\(group)"))
        // When they are all performed at once
        try await withThrowingTaskGroup(of: Int.self) { tasks in
            for _ in 0..<16 { tasks.addTask { try await session.response(for: request).status } }
            var statuses: [Int] = []
            for try await status in tasks { statuses.append(status) }
            #expect(statuses == Array(repeating: 200, count: 16))
        }
        // Then the server never ran more than 6 of them at once, a raw URLSession's default
        let most = try await servers.faults.mostAtOnce(group: group)
        print("default session: at most \(most) of 16 requests ran at once")
        #expect(most >= 1 && most <= 6)
    }

    @Test func cancelledQueuedRequestEndsAtOnceAndNeverReachesTheServer() async throws {
        // Given a session running one request at a time, busy with a request the server holds,
        // a second request queued behind it, and a last one queued after that
        let busy = try OneSlotTaken()
        let finishes = busy.finishes
        let queued = busy.session.perform(busy.echo, completion: finishes.completion("queued"))
        busy.queueLast()
        // When the queued request is cancelled, and then the running one is let go
        queued.cancel()
        try await finishes.wait(for: 1)
        try await busy.openGate()
        try await finishes.wait(for: 3)
        // Then it completed with cancelled before the running one ended, which still succeeds
        #expect(finishes.names == ["queued", "gate", "last"])
        #expect(finishes.outcome("queued") == FetchError.Code.cancelled.rawValue)
        #expect(finishes.outcome("gate") == "ok")
        // And the server never saw it, although the request queued after it has been sent and answered
        #expect(finishes.outcome("last") == "ok")
        #expect(try await busy.serverSawNoEcho())
    }

    @Test func queuedRequestRunsOutOfTimeWhileWaiting() async throws {
        // Given a session running one request at a time, busy with a request the server holds,
        // and a request with a 0.5 s deadline queued behind it
        let busy = try OneSlotTaken()
        var request = busy.echo
        request.options.deadline = .milliseconds(500)
        let clock = ContinuousClock()
        let start = clock.now
        let ended = LockedBox<(elapsed: Duration, error: FetchError?)?>(nil)
        let queued = busy.finishes.completion("queued") as @Sendable (Result<Response, any Error>) -> Void
        // When it waits, and only once it has ended the running request is let go
        busy.session.perform(request) { result in
            let error: FetchError? = if case .failure(let error as FetchError) = result { error } else { nil }
            ended.withLock { $0 = (clock.now - start, error) }
            queued(result)
        }
        try await busy.finishes.wait(for: 1)
        try await busy.openGate()
        try await busy.finishes.wait(for: 2)
        // Then its deadline ended it while the first request still ran, naming its URL
        #expect(busy.finishes.names == ["queued", "gate"])
        let (elapsed, error) = try #require(ended.withLock { $0 })
        #expect(error?.code == .deadlineExceeded)
        #expect(error?.url == request.url)
        #expect(elapsed >= .milliseconds(500))
        // And the server never saw it
        #expect(try await busy.serverSawNoEcho())
    }

    @Test func cancelAllEndsQueuedRequestsToo() async throws {
        // Given a session running one request at a time, busy with a request the server
        // holds, with three requests queued behind it
        let busy = try OneSlotTaken()
        let finishes = busy.finishes
        for index in 0..<3 { busy.session.perform(busy.echo, completion: finishes.completion("queued \(index)")) }
        // When everything is cancelled (and then one more request is queued)
        busy.session.cancelAll()
        busy.queueLast()
        try await finishes.wait(for: 5)
        // Then all four end with cancelled, the held one although the server never answered it
        #expect(finishes.names.count == 5)
        for name in finishes.names where name != "last" {
            #expect(finishes.outcome(name) == FetchError.Code.cancelled.rawValue, "\(name)")
        }
        // And none of the queued ones ever reached the server, although the request queued
        // after them has been sent and answered
        #expect(finishes.outcome("last") == "ok")
        #expect(try await busy.serverSawNoEcho())
    }

    /// A first request that is redirected before it reaches a slow resource.
    struct Redirected: CustomTestStringConvertible, Sendable {
        enum Kind: Sendable { case perform, download, upload }
        let kind: Kind
        let code: Int
        let method: HTTPMethod
        /// The redirect goes to `localhost` rather than `127.0.0.1`: another origin.
        let crossOrigin: Bool
        let testDescription: String
    }

    static let redirects = [
        Redirected(
            kind: .perform, code: 302, method: .get, crossOrigin: true,
            testDescription: "GET, 302 to another origin"),
        Redirected(
            kind: .perform, code: 307, method: .post, crossOrigin: false,
            testDescription: "POST, 307 on the same origin (sent again as a new task)"),
        Redirected(
            kind: .perform, code: 307, method: .post, crossOrigin: true,
            testDescription: "POST, 307 to another origin (sent again as a new task)"),
        Redirected(
            kind: .download, code: 302, method: .get, crossOrigin: true,
            testDescription: "download, 302 to another origin"),
        Redirected(
            kind: .upload, code: 307, method: .post, crossOrigin: true,
            testDescription: "upload, 307 to another origin"),
    ]

    @Test(arguments: redirects)
    func requestKeepsItsSlotThroughItsRedirects(first: Redirected) async throws {
        // Given a session running one request at a time, a first request redirected to a
        // resource that answers after 1 s, and a second request to the first one's origin
        let servers = try LoopbackServers.require()
        let session = Self.session(limit: 1)
        let finishes = Finishes()
        let target = servers.faults.url("/slow?seconds=1", host: first.crossOrigin ? "localhost" : "127.0.0.1")
        let request = BasicRequest(
            url: servers.faults.url("/redirect"), method: first.method,
            queryItems: [
                URLQueryItem(name: "to", value: target.absoluteString),
                URLQueryItem(name: "code", value: String(first.code)),
            ],
            body: first.method == .post ? .data(Data("payload".utf8)) : nil
        )
        // When both are started, the first one first
        let clock = ContinuousClock()
        let start = clock.now
        let secondDone = LockedBox<Duration?>(nil)
        switch first.kind {
        case .perform:
            session.perform(request, completion: finishes.completion("first"))
        case .download:
            session.download(request, to: .temporaryFile, progress: nil) { result in
                if case .success(let file) = result { try? FileManager.default.removeItem(at: file.fileURL) }
                finishes.completion("first")(result)
            }
        case .upload:
            session.upload(request, progress: nil, completion: finishes.completion("first"))
        }
        let second = finishes.completion("second") as @Sendable (Result<Response, any Error>) -> Void
        session.perform(BasicRequest(url: servers.faults.url("/status?code=200"))) { result in
            secondDone.withLock { $0 = clock.now - start }
            second(result)
        }
        try await finishes.wait(for: 2)
        // Then both succeed: the redirect did not wait for a slot, not even one its own
        // request holds. And the second request started only once the first had finished,
        // although the first had left its origin
        #expect(finishes.outcome("first") == "ok")
        #expect(finishes.outcome("second") == "ok")
        // (the second took at least the 1 s of the first's last hop)
        #expect(try #require(secondDone.withLock { $0 }) >= .seconds(1))
        #expect(finishes.names == ["first", "second"])
    }
}
