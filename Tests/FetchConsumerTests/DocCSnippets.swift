// swift-format-ignore-file
// (This file mirrors documentation code blocks line for line, so the formatter leaves it alone.)
// Every Swift block of Fetch's DocC articles, and every block of FetchTesting's articles and
// doc comments that uses the test kit, written here or in ReadmeSnippets.swift exactly as
// there, so it provably compiles (and each `@Test` runs) in a test target that imports only
// Fetch and FetchTesting. `DocCSnippetTests` checks that each block appears line for line
// (indentation, imports and blank lines aside) here, in ReadmeSnippets.swift, or in the
// README's own mirrors (QuickStartTests.swift, ReadmeMain/main.swift). Types the blocks assume
// that ReadmeSnippets.swift does not define come first.
import Foundation
import Testing
import Fetch
import FetchTesting
import FetchCaching

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

// MARK: - The articles' other blocks

// What they assume, beyond ReadmeSnippets.swift's.
struct NewUser: Encodable, Sendable { let name: String }
struct Credentials: Encodable, Sendable { let user: String; let password: String }
let etag = "\"v1\""
let user = User(id: 7, name: "Ada")
let avatarData = Data([0x89, 0x50])
/// A tracing system's entry point, as an app would have one.
struct Tracer: Sendable {
    func start(_ url: URL) -> Span { Span() }
}
/// One traced call.
struct Span: Sendable { func end(_ result: Result<Response, any Error>) { _ = result } }
/// Where a log stream's bytes go.
struct Terminal: Sendable { func write(_ bytes: Data) { _ = bytes } }
let terminal = Terminal()
let preHooks = [PreRequestHook("deadline") { $0.with(\.deadline, .seconds(5)) }]
let postHooks: [PostRequestHook] = []
let handlers: [any ErrorHandler] = [StatusErrorHandler(401) { response, request in .replace(AppError.signedOut) }]
let activity = ActivityCounter { busy in _ = busy }
func show(_ file: URL) { _ = file }

// ComposingLayers.md
struct Tracing: Layer {
    let tracer: Tracer

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let span = tracer.start(request.url)
        return next.perform(request) { result in
            span.end(result)
            completion(result)
        }
    }
}

extension RequestPerforming {
    func tracing(with tracer: Tracer) -> LayeredPerformer { layered(Tracing(tracer: tracer)) }
}

// RequestsAndModels.md
private enum TraceKey: RequestOptionKey { static let defaultValue: String? = nil }

extension RequestOptions {
    /// The trace ID to send with this call, if any.
    var traceID: String? {
        get { self[TraceKey.self] }
        set { self[TraceKey.self] = newValue }
    }
}

/// The blocks of GettingStarted.md.
enum GettingStartedBlocks {
    struct User: Codable, Parsable {
        let id: Int
        let name: String
    }

    static func callbackBlock() {
        let session = Session()

        let call = session.perform(GetUser(id: 7)) { result in
            switch result {
            case .success(let user): print("Hello, \(user.name)")
            case .failure(let error): print(error)   // method, URL, what went wrong; then the response, if any
            }
        }
        // later, if the answer is no longer wanted:
        call.cancel()
    }

    static func asyncBlock() async throws {
        func greet(using api: some RequestPerforming) async throws {
            let user = try await api.perform(GetUser(id: 7))   // a User
            print("Hello again, \(user.name)")
        }

        try await greet(using: Session())
    }

    static func configurationBlock() {
        var configuration = Session.Configuration()
        configuration.deadline = .seconds(20)
        configuration.maximumBodySize = 4 * 1024 * 1024
        let session = Session(configuration: configuration)
        use(session)
    }
}

/// The blocks of RequestsAndModels.md.
enum RequestsAndModelsBlocks {
    struct SearchUsers: Request {
        let text: String
        var url: URL { URL(string: "https://api.example.com/users")! }
        var queryItems: [URLQueryItem] { [URLQueryItem(name: "q", value: text)] }
        var headers: HTTPHeaders { ["Accept-Language": "en"] }
    }

    static func createBlock(api: any RequestPerforming) async throws {
        struct CreateUser: TypedRequest {
            typealias Output = User
            let newUser: NewUser
            var url: URL { URL(string: "https://api.example.com/users")! }
            var method: HTTPMethod { .post }
            var body: RequestBody? { .json(newUser) }
        }

        let created = try await api.perform(CreateUser(newUser: NewUser(name: "Ada")))
        use(created)
    }

    static func basicRequestBlock() {
        let request = BasicRequest(url: url, method: .put, headers: ["If-Match": etag], body: .json(user))
        use(request)
    }

    struct FindUsers: TypedRequest {
        typealias Output = [User]
        struct Filter: Encodable, Sendable { let text: String; let page: Int; let tags: [String] }
        let filter: Filter
        var url: URL { URL(string: "https://api.example.com/users")! }
        var query: (any Encodable & Sendable)? { filter }
    }

    static func multipartBlock() {
        var form = MultipartForm()
        form.append("Ada", name: "name")                                          // a text field
        form.append(avatarData, name: "avatar", fileName: "ada.png", contentType: "image/png")
        form.append(contentsOf: videoURL, name: "video", contentType: "video/mp4") // a file part
        let request = BasicRequest(url: uploadURL, method: .post, body: .multipart(form))
        use(request)
    }

    static func optionsBlock(api: any RequestPerforming) async throws {
        struct Login: TypedRequest {
            typealias Output = Token
            let credentials: Credentials
            var url: URL { URL(string: "login")! }
            var method: HTTPMethod { .post }
            var body: RequestBody? { .json(credentials) }
            var options: RequestOptions { RequestOptions().with(\.skipsAuthentication, true) }
        }

        let user = try await api.perform(GetUser(id: 7).with(\.deadline, .seconds(5)))
        use(Login.self, user)
    }

    static func parseBlock() throws {
        let response = Response(status: 200, body: Data(#"{"id":7,"name":"Ada"}"#.utf8))
        let user = try User.parse(from: response)
        use(user)
    }

    struct Event: Decodable, Parsable, JSONDecoderProviding {
        let startsAt: Date
        static var decoder: JSONDecoder {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.dateDecodingStrategy = .iso8601
            return decoder
        }
    }

    static func codersBlock() {
        let api = Session().coding(with: Coders(
            jsonEncoder: { let e = JSONEncoder(); e.keyEncodingStrategy = .convertToSnakeCase; return e },
            jsonDecoder: { let d = JSONDecoder(); d.keyDecodingStrategy = .convertFromSnakeCase; return d }
        ))
        use(api)
    }

    static func parsedBlock(api: some RequestPerforming) async throws {
        let page = try await api.parsed(GetUser(id: 7))
        print(page.value.name, page.headers.first("ETag") ?? "")
    }

    struct APIError: Decodable, Error, ErrorParsing {
        let message: String
        static func error(from response: Response) -> (any Error)? {
            try? JSONDecoder().decode(APIError.self, from: response.body)
        }
    }

    struct DeleteUser: TypedRequest {
        typealias Output = Empty
        let id: Int
        var url: URL { URL(string: "https://api.example.com/users/\(id)")! }
        var method: HTTPMethod { .delete }
        var errorParser: (any ErrorParsing.Type)? { APIError.self }
    }
}

/// The blocks of ComposingLayers.md and Caching.md that ReadmeSnippets.swift does not hold.
enum LayerBlocks {
    struct UserService {
        let api: any RequestPerforming
        init(performer: any RequestPerforming, store: TokenStore) {
            api = performer.enhanced(by: BaseURL("https://api.example.com"), BearerToken(store))
        }
    }

    static func retryBlock() {
        var policy = RetryPolicy.exponential(maxAttempts: 4, initial: .milliseconds(200), maximum: .seconds(5))
        policy.budget = RetryBudget(ratio: 0.1, reserve: 10)
        let api = Session().retrying(policy)
        use(api)
    }

    static func fullStackBlock() {
        let api = Session()
            .retrying(.exponential(maxAttempts: 3))
            .caching()
            .coalescing(ignoringHeaders: ["X-Request-ID"])
            .enhanced(by: BaseURL("https://api.example.com"), BearerToken(store), Accept.json)
            .hooking(pre: preHooks, post: postHooks)
            .refreshing(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
            .handlingErrors(handlers, presenter: banner)
            .logging(.default)
            .reportingActivity(to: activity)
        use(api)
    }

    static func cachingBlock() {
        let api = Session().caching()                       // 10 MiB in memory

        let bigger = Session().caching(CacheConfiguration(
            storage: MemoryCacheStorage(capacity: 50 * 1024 * 1024),
            heuristicFraction: nil                          // guess no freshness from Last-Modified
        ))
        use(api, bigger)
    }

    static func cachePolicyBlock(api: some RequestPerforming) async throws {
        let feed = try await api.perform(GetFeed().with(\.cachePolicy, .returnCacheElseLoad))
        use(feed)
    }

    static func cacheCredentialsBlock() {
        let api = Session()
            .caching(CacheConfiguration(sensitiveHeaders: ["X-Api-Key"]))
            .enhanced(by: BaseURL(base), BearerToken(store))   // above the cache: it sees the token
        use(api)
    }

    static func cacheOrderBlock() {
        let api = Session()
            .retrying(.exponential(maxAttempts: 3))           // transient failures, below the cache
            .caching()                                        // stores only final answers
            .coalescing()                                     // one request for identical calls, one store
            .enhanced(by: BaseURL(base), BearerToken(store))  // every layer below sees the full request
            .refreshing(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
            .logging(.default)                                // once per call, hit or not
        use(api)
    }
}

/// The blocks of StreamingResponses.md and TransferringFiles.md that ReadmeSnippets.swift does not hold.
enum BodyBlocks {
    struct Logs: Request {
        let follow: Bool
        var url: URL { URL(string: "https://api.example.com/logs?follow=\(follow)")! }
    }

    static func linesBlock(api: some RequestPerforming) async throws {
        let stream = try await api.stream(Logs(follow: true))
        print(stream.response.status)                 // the head, before the first chunk
        for try await line in stream.lines { print(line) }
    }

    static func eventsBlock(api: some RequestPerforming) async throws {
        let stream = try await api.stream(Completions(prompt: "Hello"))
        for try await event in stream.events where event.type == "delta" {
            print(event.data, terminator: "")
        }
    }

    static func callbacksBlock(api: some RequestPerforming) {
        let call = api.stream(Logs(follow: true), onResponse: { head in
            print(head.status)
        }, onChunk: { bytes in
            terminal.write(bytes)
        }) { result in
            if case .failure(let error) = result { print(error) }
        }
        use(call)
    }

    static func downloadHandleBlock(api: some RequestPerforming) {
        let handle = api.download(GetReport(), to: .temporaryFile, progress: { bar.show($0) }) { result in
            switch result {
            case .success(let file): show(file.fileURL)
            case .failure(let error): print(error)
            }
        }
        handle.cancel()   // the call ends with `cancelled`; nothing is left on disk
    }
}

// MARK: - FetchCaching.md

enum FetchCachingOverview {
    static func stack() -> some RequestPerforming {
        let api = Session()
            .retrying(.exponential(maxAttempts: 3))
            .caching()
            .coalescing()
        return api
    }
}

// MARK: - The check

@Suite struct DocCSnippetTests {
    /// What marks a block as using the test kit.
    private static let markers = ["SpyPerformer", "spy.", "spy ", "ImmediateScheduler", "ManualScheduler", "PendingCall",
                                  "SentRequest", "FetchTesting", ".hold", "cutDownload", "nextCall"]

    @Test func everyArticleBlockAndEveryBlockThatUsesTheTestKitIsMirrored() throws {
        // Given every block of Fetch's articles but the package line, and the blocks of
        // FetchTesting's articles and doc comments that use the kit
        let here = URL(fileURLWithPath: #filePath)
        let root = here.appendingPathComponent("../../../").standardized
        var articles: [String] = []
        var blocks: [String] = []
        for folder in [
            "Sources/Fetch/Fetch.docc", "Sources/FetchCaching/FetchCaching.docc", "Sources/FetchTesting/FetchTesting.docc",
        ] {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            where name.hasSuffix(".md") {
                let text = try String(contentsOf: root.appendingPathComponent("\(folder)/\(name)"), encoding: .utf8)
                if !folder.hasPrefix("Sources/FetchTesting/") {
                    articles += swiftBlocks(in: text).filter { !$0.hasPrefix(".package") }
                } else {
                    blocks += swiftBlocks(in: text)
                }
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
        let mirrors = try [
            here, here.deletingLastPathComponent().appendingPathComponent("ReadmeSnippets.swift"),
            root.appendingPathComponent("Tests/FetchTests/QuickStartTests.swift"),
            root.appendingPathComponent("Tests/ReadmeMain/main.swift"),
        ].map { lines(try String(contentsOf: $0, encoding: .utf8)).joined(separator: "\n") }

        // When each is looked for in the two mirrors
        let missing = (articles + kit).filter { block in
            !mirrors.contains { $0.contains(lines(block).joined(separator: "\n")) }
        }

        // Then every one is there, line for line
        #expect(articles.count >= 40)
        #expect(kit.count >= 10)
        #expect(missing == [], "documentation blocks mirrored nowhere")
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
