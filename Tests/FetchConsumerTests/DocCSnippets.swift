// swift-format-ignore-file
// (This file mirrors documentation code blocks line for line, so the formatter leaves it alone.)
// Every Swift block of the DocC catalogs and of FetchTesting's doc comments that uses the
// test kit, written here exactly as there, so it provably compiles (and each `@Test` runs)
// in a test target that imports only Fetch and FetchTesting. `DocCSnippetTests` checks that
// each block appears here line for line (indentation, imports and blank lines aside). Types
// the blocks assume that ReadmeSnippets.swift does not define come first.
import Foundation
import Testing
import Fetch
import FetchTesting

// MARK: - What the blocks assume

struct DeleteUser: Request {
    let id: Int
    var url: URL { URL(string: "https://api.example.com/users/\(id)")! }
    var method: HTTPMethod { .delete }
}
let ada = User(id: 7, name: "Ada")

/// Loads users, as an app's model would.
struct UserLoader {
    let api: any RequestPerforming
    func load(id: Int) async throws -> User { try await api.perform(GetUser(id: id)) }
}

/// A screen that loads user 7 while it is shown.
final class UserScreen: @unchecked Sendable {
    // `lock` guards `handle` and `loading`.
    private let lock = NSLock()
    private let api: any RequestPerforming
    private var handle: (any Cancellable)?
    private var loading = false
    init(api: any RequestPerforming) { self.api = api }
    var isLoading: Bool { lock.withLock { loading } }
    func appear() {
        lock.withLock { loading = true }
        let handle = api.perform(GetUser(id: 7)) { [self] _ in lock.withLock { loading = false } }
        lock.withLock { self.handle = handle }
    }
    func disappear() { lock.withLock { handle }?.cancel() }
}

extension ReportDownloader {
    func fetch(progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DownloadedFile {
        try await performer.download(GetReport(), to: .temporaryFile, progress: progress)
    }
}

// MARK: - The blocks

// Caching.md
@Test func aFreshResponseIsServedWithoutTheNetwork() async throws {
    // Given a cache over a spy that answers once with a response fresh for a minute
    let now = Date()
    let spy = SpyPerformer([.response(Response(status: 200, headers: ["Cache-Control": "max-age=60"],
                                               body: Data("feed".utf8)))])
    let api = spy.caching(CacheConfiguration(clock: { now }))

    // When the feed is asked for twice
    _ = try await api.response(for: GetFeed())
    let second = try await api.response(for: GetFeed())

    // Then the second answer came from the cache
    #expect(spy.calls.count == 1)
    #expect(second.metrics.cache == .hit)
}

// StreamingResponses.md
@Test func aStreamCutHalfwayKeepsWhatArrived() async throws {
    // Given a spy that sends two events, then loses the connection
    let spy = SpyPerformer([.stream(events: [
        ServerSentEvent(data: "Hel"), ServerSentEvent(data: "lo"),
    ], then: FetchError(.connectionLost, reason: "reset"))])

    // When the code under test reads the events
    let stream = try await spy.stream(Completions(prompt: "Hello"))
    var received: [String] = []
    let error = await #expect(throws: FetchError.self) {
        for try await event in stream.events { received.append(event.data) }
    }

    // Then it got both events, then the error
    #expect(received == ["Hel", "lo"])
    #expect(error?.code == .connectionLost)
}

// TransferringFiles.md
@Test func reportIsSavedWithProgress() async throws {
    // Given a spy that answers with a PDF, reporting a quarter and a half on the way
    let spy = SpyPerformer([.response(Response(status: 200, body: pdfBytes))])
    spy.progressFractions = [0.25, 0.5]
    let destination = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + ".pdf")

    // When the code under test downloads the report
    let file = try await spy.download(GetReport(), to: .file(destination))

    // Then the spy saw a download to that file, and the file holds the body
    #expect(spy.calls.first?.kind == .download)
    #expect(try Data(contentsOf: file.fileURL) == pdfBytes)
}

// TestingWithFetchTesting.md
@Test func greetAsksForUserSeven() async throws {
    // Given a spy that answers with Ada
    let spy = SpyPerformer([try .json(User(id: 7, name: "Ada"))])

    // When the code under test loads user 7
    let user = try await UserLoader(api: spy).load(id: 7)

    // Then it got Ada, from one GET of /users/7
    #expect(user.name == "Ada")
    #expect(spy.requests.map(\.url.path) == ["/users/7"])
    #expect(spy.urlRequests.first??.httpMethod == "GET")
}

// TestingWithFetchTesting.md
final class Recorder<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `values`.
    private let lock = NSLock()
    private var values: [Value] = []
    func record(_ value: Value) { lock.lock(); values.append(value); lock.unlock() }
    var all: [Value] { lock.lock(); defer { lock.unlock() }; return values }
}

@Test func aMissingUserShowsNotFound() {
    // Given a spy that answers 404
    let spy = SpyPerformer([.status(404)])
    let results = Recorder<Result<User, any Error>>()

    // When the code under test loads a user with a callback
    spy.perform(GetUser(id: 7)) { results.record($0) }

    // Then the one result is an httpStatus error carrying the 404
    #expect(results.all.count == 1)
    let error = #expect(throws: FetchError.self) { try results.all.first?.get() }
    #expect(error?.code == .httpStatus)
    #expect(error?.status == 404)
}

// TestingWithFetchTesting.md
@Test func leavingTheScreenCancelsTheLoad() throws {
    // Given a screen whose load the spy holds open
    let spy = SpyPerformer([.hold])
    let screen = UserScreen(api: spy)
    screen.appear()
    let call = try #require(spy.pending.first)
    #expect(screen.isLoading)

    // When the screen goes away
    screen.disappear()

    // Then the call was cancelled, and nothing is pending any more
    #expect(call.isCancelled)
    #expect(spy.pending.isEmpty)
}

// TestingWithFetchTesting.md
@Test func a503IsRetriedAfterTheBackoff() throws {
    // Given a spy that answers 503 then Ada, under a retry of one second on a manual clock
    let spy = SpyPerformer([.status(503), try .json(User(id: 7, name: "Ada"))])
    let clock = ManualScheduler()
    let api = spy.retrying(.constant(maxAttempts: 2, delay: .seconds(1)), scheduler: clock)
    let results = Recorder<Result<User, any Error>>()

    // When the call is made and half the delay passes
    api.perform(GetUser(id: 7)) { results.record($0) }
    clock.advance(by: .milliseconds(500))

    // Then only the first attempt was sent
    #expect(spy.calls.count == 1)
    #expect(results.all.isEmpty)

    // When the rest of the delay passes
    clock.advance(by: .milliseconds(500))

    // Then the second attempt got Ada
    #expect(spy.calls.count == 2)
    #expect(try results.all.first?.get().name == "Ada")
}

// TestingWithFetchTesting.md
@Test func theProfileLoadsWithTheActorsToken() async throws {
    // Given a held call under an enhancer that reads its token from an actor
    let spy = SpyPerformer([.hold])
    let api = spy.enhanced(by: ActorBearer(tokens: Tokens()))

    // When the code under test loads the profile, and the call reaches the spy
    let load = Task(priority: .high) { try await UserLoader(api: api).load(id: 7) }
    let call = try await spy.nextCall()
    call.respond(try .json(User(id: 7, name: "Ada")))

    // Then the call carried the token, and the loader got Ada
    #expect(call.urlRequest?.value(forHTTPHeaderField: "Authorization") == "Bearer abc")
    #expect(try await load.value.name == "Ada")
}

// TestingWithFetchTesting.md
@Test func theReportIsSavedWithProgress() async throws {
    // Given a spy that answers with a PDF, reporting a quarter and a half on the way
    let spy = SpyPerformer([.response(Response(status: 200, body: pdfBytes))])
    spy.progressFractions = [0.25, 0.5]
    let seen = Recorder<TransferProgress>()

    // When the code under test downloads the report
    let file = try await ReportDownloader(performer: spy).fetch { seen.record($0) }

    // Then it was a download with two reports on the way and a final one, and the file holds the body
    #expect(spy.calls.first?.kind == .download)
    #expect(seen.all.map(\.isFinished) == [false, false, true])
    #expect(try Data(contentsOf: file.fileURL) == pdfBytes)
}

// TestingWithFetchTesting.md
@Test func aCutDownloadResumesWhereItStopped() async throws {
    // Given a download cut after 400 of its 1,000 bytes, then the rest
    let body = Data(repeating: 7, count: 1000)
    let spy = SpyPerformer([
        .cutDownload(Response(status: 200, headers: ["ETag": "\"v1\"", "Content-Length": "1000"], body: body), after: 400),
        .response(Response(status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 400-999/1000"],
                           body: body.suffix(600))),
    ])
    let destination = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)

    // When the download is retried once
    let file = try await spy.retrying(.constant(delay: .zero), scheduler: ImmediateScheduler())
        .download(GetVideo(), to: .file(destination))

    // Then the second request asked for the rest, and the file is whole
    #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Range") == "bytes=400-")
    #expect(try Data(contentsOf: file.fileURL) == body)
}

// TestingWithFetchTesting.md
func sentRequestBlock(spy: SpyPerformer) throws {
    let sent = try spy.sent(0)
    #expect(sent.method == .post && sent.path == "/users")
    #expect(sent.header("Authorization") == "Bearer abc")
    #expect(try sent.jsonBody == SentRequest.json(#"{"name":"Ada"}"#))
}

// TestingWithFetchTesting.md
func matcherBlock() {
    let spy = SpyPerformer(match: { request in
        switch request {
        case let get as GetUser: return try? SpyPerformer.Answer.json(User(id: get.id, name: "User \(get.id)"))
        case is DeleteUser: return .status(204)
        default: return nil
        }
    })
    use(spy)
}

// CallArrivals.swift
@Test func nextCallAwaitsACallSentFromATask() async throws {
    let spy = SpyPerformer([.hold])
    let load = Task(priority: .high) {
        try await spy.enhanced(by: ActorBearer(tokens: Tokens())).perform(GetUser(id: 7))
    }
    let call = try await spy.nextCall()          // fails the test after 10 s, never hangs
    call.respond(try .json(User(id: 7, name: "Ada")))
    #expect(try await load.value.name == "Ada")
}

// SpyPerformer+Inspection.swift
func sentIndexBlock(spy: SpyPerformer) throws {
    #expect(try spy.sent(0).method == .post)
    #expect(try spy.sent(0).path == "/users")
    #expect(try spy.sent(0).queryItem("page") == "2")
    #expect(try spy.sent(0).header("Authorization") == "Bearer abc")
    #expect(try spy.sent(0).jsonBody == SentRequest.json(#"{"name":"Ada"}"#))
}

// SpyPerformer+Resume.swift
func cutDownloadBlock() async throws {
    let body = Data(repeating: 7, count: 1000)
    let spy = SpyPerformer([
        .cutDownload(Response(status: 200, headers: ["ETag": "\"v1\"", "Content-Length": "1000"], body: body), after: 400),
        .response(Response(status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 400-999/1000"],
                           body: body.suffix(600))),
    ])
    let file = try await spy.retrying(.constant(delay: .zero), scheduler: ImmediateScheduler())
        .download(request, to: .file(url))   // the second call asked for Range: bytes=400-
    use(file)
}

// SpyPerformer+Routes.swift
func routesBlock() throws {
    let spy = SpyPerformer(routes: [
        .init(.get, "/users/7", try .json(ada)),
        .init(.delete, "/users/7", .status(204)),
    ])
    use(spy)
}

// SpyPerformer+Routes.swift
func rawJSONBlock() {
    let spy = SpyPerformer([.json(raw: #"{"id": 7, "tags": ["a", 1, null]}"#)])
    use(spy)
}

// SpyPerformer+Streams.swift
func scriptedStreamBlock() {
    let spy = SpyPerformer([.stream(events: [
        ServerSentEvent(data: "Hel"), ServerSentEvent(data: "lo"),
    ], then: FetchError(.connectionLost, reason: "reset"))])
    spy.stream(Completions(prompt: "Hello"), onChunk: { chunk in show(chunk) }) { result in finished(result) }
    // every chunk and the completion have run here
}

// SpyPerformer.swift
@Test func theSpyAnswersBeforePerformReturns() throws {
    let spy = SpyPerformer([try .json(User(id: 7, name: "Ada"))])
    spy.perform(GetUser(id: 7)) { result in
        #expect((try? result.get())?.name == "Ada")   // runs before `perform` returns
    }
    #expect(spy.requests.count == 1)
}

// MARK: - The check

@Suite struct DocCSnippetTests {
    /// What marks a block as using the test kit.
    private static let markers = ["SpyPerformer", "spy.", "spy ", "ImmediateScheduler", "ManualScheduler", "PendingCall",
                                  "SentRequest", "FetchTesting", ".hold", "cutDownload", "nextCall"]

    @Test func everyDocumentationBlockThatUsesTheTestKitIsHereAsWritten() throws {
        // Given the blocks of the DocC articles and of FetchTesting's doc comments that use the kit
        let here = URL(fileURLWithPath: #filePath)
        let root = here.appendingPathComponent("../../../").standardized
        var blocks: [String] = []
        for folder in ["Sources/Fetch/Fetch.docc", "Sources/FetchTesting/FetchTesting.docc"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            where name.hasSuffix(".md") {
                let text = try String(contentsOf: root.appendingPathComponent("\(folder)/\(name)"), encoding: .utf8)
                blocks += swiftBlocks(in: text)
            }
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources/FetchTesting").path)
        where name.hasSuffix(".swift") {
            let text = try String(contentsOf: root.appendingPathComponent("Sources/FetchTesting/\(name)"), encoding: .utf8)
            let comments = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                return trimmed.hasPrefix("///") ? String(trimmed.dropFirst(3)) : "\u{0}"
            }
            blocks += swiftBlocks(in: comments.joined(separator: "\n")).filter { !$0.contains("\u{0}") }
        }
        let kit = blocks.filter { block in Self.markers.contains { block.contains($0) } && !block.hasPrefix(".testTarget") }
        let source = lines(try String(contentsOf: here, encoding: .utf8)).joined(separator: "\n")

        // When each is looked for here
        let missing = kit.filter { !source.contains(lines($0).joined(separator: "\n")) }

        // Then every one is here, line for line
        #expect(kit.count >= 15)
        #expect(missing == [], "documentation blocks not mirrored in DocCSnippets.swift")
    }

    private func swiftBlocks(in text: String) -> [String] {
        text.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    /// The non-blank lines of `code` other than imports, without their indentation.
    private func lines(_ code: String) -> [String] {
        code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") && !$0.hasPrefix("@testable import ") }
    }
}
