// swift-format-ignore-file
// (This file mirrors README code blocks line for line, so the formatter leaves it alone.)
// Every Swift block of README.md below "## Quick start" (whose code lives in
// Tests/FetchTests/QuickStartTests.swift), written here exactly as there, so the README's
// code provably compiles, without a warning, with `import Fetch` and `import FetchTesting`
// alone. `ReadmeSnippetsTests` checks that each block appears here line for line
// (indentation aside). Around the blocks: what they assume an app has (a token store, an
// auth service, a presenter, ...) and a `use(_:)` after a block whose values it leaves unused.
import Foundation
import Testing
import Fetch
import FetchTesting

// MARK: - What the blocks assume

struct User: Codable, Parsable { let id: Int; let name: String }
struct GetUser: TypedRequest {
    typealias Output = User
    let id: Int
    var url: URL { URL(string: "https://api.example.com/users/\(id)")! }
}
struct Token: Decodable, Parsable { let value: String }
struct Login: TypedRequest {
    typealias Output = Token
    let user: String
    var url: URL { URL(string: "login")! }
    var method: HTTPMethod { .post }
}
struct Upload: TypedRequest {
    typealias Output = Empty
    let file: URL
    init(_ file: URL) { self.file = file }
    var url: URL { URL(string: "uploads")! }
    var method: HTTPMethod { .post }
    var body: RequestBody? { .file(file, contentType: "application/octet-stream") }
}
struct Order: Codable, Sendable { var item: String }
struct CreateOrder: TypedRequest {
    typealias Output = Empty
    let order: Order
    init(_ order: Order) { self.order = order }
    var url: URL { URL(string: "orders")! }
    var method: HTTPMethod { .post }
    var body: RequestBody? { .json(order) }
}
struct GetReport: Request { var url: URL { URL(string: "https://api.example.com/report.pdf")! } }
struct GetVideo: Request { var url: URL { URL(string: "https://api.example.com/video.mp4")! } }
enum AppError: Error, Equatable {
    case offline, signedOut, other(String)
    init(_ error: any Error) { self = .other("\(error)") }
}
struct Auth: Sendable { func refreshedToken() async throws -> String { "new-token" } }
struct Banner: RequestPresenting {}
struct AppLogger: Sendable { func info(_ message: String) { _ = message } }
/// A view that can be hidden from any thread.
final class Spinner: @unchecked Sendable {
    // `lock` guards `hidden`.
    private let lock = NSLock()
    private var hidden = true
    var isHidden: Bool {
        get { lock.withLock { hidden } }
        set { lock.withLock { hidden = newValue } }
    }
}
struct ProgressBar: Sendable { func show(_ progress: TransferProgress) { _ = progress } }
struct ReportDownloader {
    let performer: any RequestPerforming
    func fetch() async throws -> DownloadedFile { try await performer.download(GetReport(), to: .temporaryFile) }
}

let savedToken = "saved"
let store = TokenStore(savedToken)
let auth = Auth()
let banner = Banner()
let logger = AppLogger()
let spinner = Spinner()
let bar = ProgressBar()
let name = "ada"
let file = URL(fileURLWithPath: "/tmp/upload.bin")
let order = Order(item: "tea")
let request = BasicRequest(url: URL(string: "https://api.example.com/things")!)
let session = Session()
let reportURL = URL(fileURLWithPath: "/tmp/report.pdf")
let videoURL = URL(fileURLWithPath: "/tmp/video.mp4")
let photosURL = URL(string: "https://api.example.com/photos/1")!
let photoURL = URL(fileURLWithPath: "/tmp/photo.jpg")
let uploadURL = URL(string: "https://api.example.com/uploads")!
let url = URL(fileURLWithPath: "/tmp/file.bin")
let bytes = Data(count: 1000)
let pdfBytes = Data("%PDF".utf8)
func show(_ result: Result<Response, any Error>) { _ = result }
/// Marks values a block makes and leaves unused.
func use(_ values: Any...) { _ = values }

// MARK: - The blocks, in README order

// Queries and forms from Encodable values; coders set once
struct Filters: Encodable, Sendable {
    var text: String
    var tags: [String]
    var since: Date?
    var archived: Bool
}

struct SearchItems: Request {
    let filters: Filters
    var url: URL { URL(string: "https://api.example.com/items")! }
    var query: (any Encodable & Sendable)? { filters }
}

struct SignIn: Request {
    let user: String, password: String
    var url: URL { URL(string: "https://api.example.com/session")! }
    var method: HTTPMethod { .post }
    var body: RequestBody? { .form(["user": user, "password": password]) }
}

func codersBlock() {
    let api = Session()
        .coding(with: Coders(
            jsonEncoder: { let encoder = JSONEncoder(); encoder.dateEncodingStrategy = .iso8601; return encoder },
            jsonDecoder: { let decoder = JSONDecoder(); decoder.dateDecodingStrategy = .iso8601; return decoder },
            parameterEncoder: ParameterEncoder(arrayEncoding: .repeated)
        ))
        .enhanced(by: BaseURL("https://api.example.com"))
    use(api)
}

// Layers
func layersBlock() async throws {
    let store = TokenStore(savedToken)
    let api = Session()
        .enhanced(by: BaseURL("https://api.example.com"), BearerToken(store))
        .retrying(.exponential(maxAttempts: 3))
        .resuming(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
        .logging(.default)

    let user = try await api.perform(GetUser(id: 7))   // GET https://api.example.com/users/7
    use(user)
}

struct ProfileService {
    let api: any RequestPerforming
    init(performer: any RequestPerforming) {
        api = performer.enhanced(by: BaseURL("https://api.example.com")).logging(.default)
    }
}

// Enhancers
func enhancersBlock() {
    let api = Session().enhanced(by:
        BaseURL("https://api.example.com/v1"),           // "users/7" -> .../v1/users/7
        BearerToken(store),
        ComputedHeader("X-Request-ID") { _ in UUID().uuidString },
        Accept.json,
        StatusVerifier(200..<300)
    )
    use(api)
}

actor Tokens {
    var current = "abc"
}

struct ActorBearer: AsyncEnhancer {
    let tokens: Tokens
    func prepared(for request: any Request) async throws -> any Enhancer {
        FixedHeaders(["Authorization": "Bearer \(await tokens.current)"])
    }
}

struct AdminEndpoint: Request {
    var url: URL
    var options: RequestOptions { RequestOptions().with(\.enhancers, [FixedHeaders(["X-Area": "admin"])]) }
}

// Per-request options
func optionsBlock(api: some RequestPerforming) async throws {
    _ = try await api.perform(Login(user: name).with(\.skipsAuthentication, true))
    _ = try await api.perform(Upload(file).with(\.baseURL, URL(string: "https://uploads.example.com")))
    _ = try await api.perform(CreateOrder(order).with(\.isRetryable, true))   // opt a POST in to retry
    _ = try await api.perform(GetUser(id: 7).with(\.logOptions, .all))        // log everything, once
    api.perform(GetUser(id: 7).with(\.completionQueue, .main)) { (user: Result<User, any Error>) in use(user) }
}

// Retry
func retryBlock() {
    var policy = RetryPolicy.exponential(maxAttempts: 4, initial: .milliseconds(200), maximum: .seconds(5))
    policy.budget = RetryBudget(ratio: 0.1, reserve: 10)   // at most ~10% extra requests, shared
    let api = Session().retrying(policy)
    let custom = Session().retrying(RetryPolicy { attempt in attempt.number < 2 ? .retry : .stop })
    use(api, custom)
}

func retryableBlock(api: some RequestPerforming) {
    api.performRetryable(request) { result, retry in
        let result = result.requiringSuccess()       // a 503 is a failure from here on
        if case .failure = result, retry.retry(max: 3, delay: .seconds(1)) { return }
        show(result)
    }
}

// Error handlers
func errorHandlersBlock() {
    let api = Session().handlingErrors([
        CodeErrorHandler(.notConnected) { error, request in .replace(AppError.offline) },
        StatusErrorHandler(401, 403) { response, request in .replace(AppError.signedOut) },
        AnyErrorHandler { error, request in .replace(AppError(error)) },
    ], presenter: banner)
    use(api)
}

func errorHandlerOrderBlock() {
    let guarded = Session()
        .enhanced(by: BaseURL("https://api.example.com"), BearerToken(store))
        .retrying(.exponential(maxAttempts: 3))
        .resuming(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
        .handlingErrors([StatusErrorHandler(401) { response, request in .replace(AppError.signedOut) }])   // after refresh
        .logging(.default)
    use(guarded)
}

func loadProfile(using api: some RequestPerforming) async throws {
    do {
        _ = try await api.perform(GetUser(id: 7))
    } catch let error where error.thrown(as: AppError.self) == .offline {
        print("offline")
    }
}

// Refresh and resume
func refreshBlock() {
    let api = Session()
        .enhanced(by: BearerToken(store))
        .resuming(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
    use(api)
}

func showsLoadingBlock(api: some RequestPerforming) {
    api.perform(GetFeed().with(\.showsLoading, false)) { result in print(result) }   // a prefetch: no spinner
}

struct OfflineFallback: AsyncErrorHandler {
    let vault: TokenVault
    func handles(_ error: any Error, for request: any Request) -> Bool {
        (error as? FetchError)?.code == .notConnected
    }
    func handle(_ error: any Error, for request: any Request) async throws -> AsyncErrorHandlingResult {
        await vault.accessToken.isEmpty ? .replace(AppError.signedOut) : .retry
    }
}

func makeTolerantAPI(vault: TokenVault) -> some RequestPerforming {
    Session().handlingErrors(with: OfflineFallback(vault: vault))
}

func urlSessionConfigurationBlock() throws {
    let settings = URLSessionConfiguration.default
    settings.httpAdditionalHeaders = ["X-Client": "ios-4.2"]
    let custom = try Session(urlSessionConfiguration: settings, configuration: Session.Configuration())
    use(custom)
}

func cookiesBlock() {
    var configuration = Session.Configuration()
    configuration.cookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage  // in memory
    let session = Session(configuration: configuration)
    use(session)
}

// Tokens held by an actor
actor TokenVault {
    private(set) var accessToken: String
    init(accessToken: String) { self.accessToken = accessToken }
    func refresh(using auth: Auth) async throws { accessToken = try await auth.refreshedToken() }
}

struct VaultBearer: AsyncEnhancer {
    let vault: TokenVault
    func prepared(for request: any Request) async throws -> any Enhancer {
        FixedHeaders(["Authorization": "Bearer \(await vault.accessToken)"])
    }
}

func makeAPI(vault: TokenVault, over performer: any RequestPerforming = Session()) -> any RequestPerforming {
    performer
        .enhanced(by: BaseURL("https://api.example.com"), VaultBearer(vault: vault))
        .resuming(with: RefreshTokenHandler { done in
            Task {
                do {
                    try await vault.refresh(using: auth)
                    done(.success(()))
                } catch {
                    done(.failure(error))
                }
            }
        })
        .handlingErrors([StatusErrorHandler(401) { response, request in .replace(AppError.signedOut) }])
}

@Test func anExpiredTokenIsRefreshedAndTheCallResent() async throws {
    // Given a vault with an old token, and a spy that answers 401 then holds the resend
    let vault = TokenVault(accessToken: "old")
    let spy = SpyPerformer([.status(401), .hold])
    let api = makeAPI(vault: vault, over: spy)

    // When a call is made and the resend reaches the spy
    let answer = Task(priority: .high) { try await api.perform(GetUser(id: 7)) }
    let first = try await spy.nextCall()
    let resend = try await spy.nextCall()
    resend.respond(try .json(User(id: 7, name: "Ada")))

    // Then the first went with the old token, the resend with the new one
    #expect(first.urlRequest?.value(forHTTPHeaderField: "Authorization") == "Bearer old")
    #expect(resend.urlRequest?.value(forHTTPHeaderField: "Authorization") == "Bearer new-token")
    #expect(try await answer.value.name == "Ada")
}

// Hooks
func hooksBlock() {
    let api = Session().hooking(
        pre: [PreRequestHook("deadline") { $0.with(\.deadline, .seconds(5)) }],
        post: [PostRequestHook("follow job") { response, _ in
            guard response.status == 202, let url = response.headers.first("Location").flatMap(URL.init(string:))
            else { return .continue }
            return .send(BasicRequest(url: url))
        }]
    )
    use(api)
}

// Logging
func loggingBlock() {
    let printed = Session().logging(.default)                     // one line per call, printed
    let forwarded = Session().logging(LogConfiguration(options: .headers,
                                       redaction: .default.adding(headers: ["X-Api-Key"], queryItems: ["token"])) {
        logger.info("\($0)")                                       // swift-log, os.Logger, anything
    })
    use(printed, forwarded)
}

func redactionBlock() {
    var redaction = Redaction.default.adding(bodyFields: ["iban"])
    redaction.secretWords.remove("key")                 // "key" fields are shown again
    let quiet = Session().logging(LogConfiguration(options: .all, redaction: redaction) { print($0) })
    use(quiet)
}

// Activity
func activityBlock() {
    let activity = ActivityCounter { busy in DispatchQueue.main.async { spinner.isHidden = !busy } }
    let api = Session().reportingActivity(to: activity)
    use(api)
}

// Metrics
func metricsBlock(api: some RequestPerforming) async throws {
    let response = try await api.response(for: GetUser(id: 7))
    print(response.metrics)   // queued 0.1 ms, first byte 2.8 ms, total 3.0 ms, sent 0 B, received 412 B, retries 1
    let measured = Session().logging(LogConfiguration(options: [.default, .metrics]) { print($0) })   // a metrics line per call
    use(measured)
}

// Caching
struct Feed: Decodable, Parsable { let items: [String] }
struct GetFeed: TypedRequest {
    typealias Output = Feed
    var url: URL { URL(string: "https://api.example.com/feed")! }
}
let base = "https://api.example.com"

func cachingBlock() async throws {
    let api = Session().caching()                       // 10 MiB in memory
    let tuned = Session().caching(CacheConfiguration(
        storage: MemoryCacheStorage(capacity: 50 * 1024 * 1024),
        heuristicFraction: nil                          // guess no freshness from Last-Modified (0.1 by default)
    ))
    let feed = try await api.perform(GetFeed().with(\.cachePolicy, .returnCacheElseLoad))
    use(tuned, feed)
}

func cacheCredentialsBlock() {
    let api = Session()
        .caching(CacheConfiguration(sensitiveHeaders: ["X-Api-Key"]))
        .enhanced(by: BaseURL(base), BearerToken(store))     // above the cache: it sees the token
    use(api)
}

func layerOrderBlock() {
    let api = Session()
        .retrying(.exponential(maxAttempts: 3))          // 5. transient failures, below the cache
        .caching()                                       // 4. stores only final answers
        .coalescing()                                    // 3. one request for identical calls, one store
        .enhanced(by: BaseURL(base), BearerToken(store)) // 2. every layer below sees the full request
        .resuming(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
        .logging(LogConfiguration(options: [.default, .metrics]) { print($0) })   // 1. once per call
    use(api)
}

// Streaming
struct Completions: Request {
    let prompt: String
    var url: URL { URL(string: "https://api.example.com/completions")! }
}
struct Logs: Request { var url: URL { URL(string: "logs")! } }
func show(_ chunk: Data) { _ = chunk }
func finished(_ result: Result<Response, any Error>) { _ = result }

func streamBlock(api: some RequestPerforming) async throws {
    let stream = try await api.stream(Completions(prompt: "Hello"))
    print(stream.response.status)                     // before the first chunk
    for try await event in stream.events {            // or stream.chunks (Data), stream.lines (String)
        if event.type == "delta" { print(event.data, terminator: "") }
    }
}

func streamCallbackBlock(api: some RequestPerforming) {
    let handle = api.stream(Logs(), onResponse: { print($0.status) },
                            onChunk: { chunk in show(chunk) }) { result in finished(result) }
    handle.cancel()   // no chunk follows; the completion says cancelled, once
}

func streamSpyBlock() {
    let spy = SpyPerformer([.stream(events: [ServerSentEvent(data: "Hel"), ServerSentEvent(data: "lo")],
                                    then: FetchError(.connectionLost, reason: "reset"))])
    // .stream([Data], status:headers:then:) scripts raw chunks; .stream(ScriptedStream(...)) mixes them
    use(spy)
}

// Coalescing
func coalescingBlock() {
    let api = Session().coalescing(ignoringHeaders: ["X-Request-ID"])
    use(api)
}

// Transfers
func transfersBlock() async throws {
    let api = Session()
        .enhanced(by: BaseURL("https://api.example.com"), BearerToken(store))
        .retrying(.exponential(maxAttempts: 3))
        .resuming(with: RefreshTokenHandler(store) { try await auth.refreshedToken() })
        .logging(.default)
    let report = try await api.download(GetReport(), to: .file(reportURL))
    use(report)
}

func downloadBlock(api: some RequestPerforming) async throws {
    let file = try await api.download(GetReport(), to: .file(reportURL)) { progress in
        print(progress)                        // "12.5 MB of 100.0 MB (12%)"
    }
    print(file.status, file.fileURL)           // file.response has the headers; its body is empty
}

func resumeBlock(api: some RequestPerforming) async throws {
    let handle = api.download(GetVideo(), to: .file(videoURL), progress: nil) { result in print(result) }
    handle.cancelKeepingPartial()                     // "pause": the call ends with .cancelled
    if let partial = PartialDownload.existing(for: videoURL) {
        print("\(partial.receivedBytes) of \(partial.expectedBytes ?? 0) bytes kept")
    }
    let video = try await api.download(GetVideo(), to: .file(videoURL)) { progress in
        print(progress)                               // starts at the kept bytes, out of the whole size
    }
    // or give up on it: PartialDownload.discard(for: videoURL)
    use(video)
}

func resumeSpyBlock() async throws {
    let spy = SpyPerformer([
        .cutDownload(Response(status: 200, headers: ["ETag": "\"v1\"", "Content-Length": "1000"], body: bytes), after: 400),
        .response(Response(status: 206, headers: ["Content-Range": "bytes 400-999/1000"], body: bytes.suffix(600))),
    ])
    let file = try await spy.retrying(.constant(delay: .zero), scheduler: ImmediateScheduler())
        .download(request, to: .file(url))
    #expect(spy.urlRequests.last??.value(forHTTPHeaderField: "Range") == "bytes=400-")
    use(file)
}

func uploadBlock() async throws {
    let request = BasicRequest(url: photosURL, method: .put, body: .file(photoURL, contentType: "image/jpeg"))
    let response = try await session.upload(request) { progress in print(progress) }

    var form = MultipartForm()
    form.append("Holiday", name: "title")
    form.append(contentsOf: videoURL, name: "video", contentType: "video/mp4")
    let posted = try await session.upload(BasicRequest(url: uploadURL, method: .post, body: .multipart(form)))
    use(response, posted)
}

func progressBlock() async throws {
    let transfer = session.downloading(request, to: .temporaryFile)
    for await progress in transfer.progress { bar.show(progress) }
    let file = try await transfer.value         // cancelling the Task cancels the transfer
    use(file)
}

func spyTransferBlock() async throws {
    let spy = SpyPerformer([.response(Response(status: 200, body: pdfBytes))])
    spy.progressFractions = [0.25, 0.5]
    let file = try await ReportDownloader(performer: spy).fetch()   // written, reported, done
    #expect(spy.calls.first?.kind == .download)
    use(file)
}

// MARK: - The check

@Suite struct ReadmeSnippetsTests {
    @Test func everySwiftBlockOfTheReadmeIsHereAsWritten() throws {
        // Given the README's Swift blocks after the quick start, and this file
        let here = URL(fileURLWithPath: #filePath)
        let readme = try String(contentsOf: here.appendingPathComponent("../../../README.md").standardized, encoding: .utf8)
        let afterQuickStart = try #require(readme.components(separatedBy: "\n## Quick start\n").dropFirst().first)
        let rest = afterQuickStart.components(separatedBy: "\n## ").dropFirst().joined(separator: "\n## ")
        let blocks = rest.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let source = lines(try String(contentsOf: here, encoding: .utf8)).joined(separator: "\n")

        // When each block is looked for here
        let missing = blocks.filter { !source.contains(lines($0).joined(separator: "\n")) }

        // Then every one is here, line for line
        #expect(blocks.count >= 20)
        #expect(missing == [], "README blocks not mirrored in ReadmeSnippets.swift")
    }

    /// The non-blank lines of `code`, without their indentation.
    private func lines(_ code: String) -> [String] {
        code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
