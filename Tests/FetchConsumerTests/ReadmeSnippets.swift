// swift-format-ignore-file
// (This file mirrors documentation code blocks line for line, so the formatter leaves it alone.)
// Blocks of the DocC articles that took over the README's sections, written here exactly as
// there, so they provably compile, without a warning, with `import Fetch` and
// `import FetchTesting` alone; `DocCSnippetTests` checks them (indentation aside). Around the
// blocks: what they assume an app has (a token store, an auth service, a presenter, ...) and
// a `use(_:)` after a block whose values it leaves unused. `ReadmeSnippetsTests` checks that
// the README's app code is the top-level code of Tests/ReadmeMain/main.swift, and
// Tests/FetchTests/QuickStartTests.swift that its quick start and spy test are there.
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

// MARK: - The blocks

// ComposingLayers.md
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

func optionsBlock(api: some RequestPerforming) async throws {
    _ = try await api.perform(Login(user: name).with(\.skipsAuthentication, true))
    _ = try await api.perform(Upload(file).with(\.baseURL, URL(string: "https://uploads.example.com")))
    _ = try await api.perform(CreateOrder(order).with(\.isRetryable, true))   // opt a POST in to retry
    _ = try await api.perform(GetUser(id: 7).with(\.logOptions, .all))        // log everything, once
    api.perform(GetUser(id: 7).with(\.completionQueue, .main)) { (user: Result<User, any Error>) in use(user) }
}

func retryableBlock(api: some RequestPerforming) {
    api.performRetryable(request) { result, retry in
        let result = result.requiringSuccess()       // a 503 is a failure from here on
        if case .failure = result, retry.retry(maxAttempts: 3, delay: .seconds(1)) { return }
        show(result)
    }
}

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

// SafetyOnLinux.md
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

// ComposingLayers.md
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

func activityBlock() {
    let activity = ActivityCounter { busy in DispatchQueue.main.async { spinner.isHidden = !busy } }
    let api = Session().reportingActivity(to: activity)
    use(api)
}

func metricsBlock(api: some RequestPerforming) async throws {
    let response = try await api.response(for: GetUser(id: 7))
    print(response.metrics)   // queued 0.1 ms, first byte 2.8 ms, total 3.0 ms, sent 0 B, received 412 B, retries 1
    let measured = Session().logging(LogConfiguration(options: [.default, .metrics]) { print($0) })   // a metrics line per call
    use(measured)
}

// What the blocks below and DocCSnippets.swift assume
struct Feed: Decodable, Parsable { let items: [String] }
struct GetFeed: TypedRequest {
    typealias Output = Feed
    var url: URL { URL(string: "https://api.example.com/feed")! }
}
let base = "https://api.example.com"

struct Completions: Request {
    let prompt: String
    var url: URL { URL(string: "https://api.example.com/completions")! }
}
struct Logs: Request { var url: URL { URL(string: "logs")! } }
func show(_ chunk: Data) { _ = chunk }
func finished(_ result: Result<Response, any Error>) { _ = result }

// TransferringFiles.md
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

// MARK: - The check

@Suite struct ReadmeSnippetsTests {
    private let root = URL(fileURLWithPath: #filePath).appendingPathComponent("../../../").standardized

    /// The Swift blocks of the README.
    private func readmeBlocks() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    @Test func theReadmesCodeIsTopLevelCodeOfReadmeMain() throws {
        // Given the README's blocks of app code (not the package line, not the test), and the
        // main.swift of the ReadmeMain target
        let blocks = try readmeBlocks().filter { !$0.hasPrefix(".package") && !$0.contains("@Test") }
        let main = try String(contentsOf: root.appendingPathComponent("Tests/ReadmeMain/main.swift"), encoding: .utf8)
        let source = lines(main).joined(separator: "\n")

        // When each block is looked for there
        let missing = blocks.filter { !source.contains(lines($0).joined(separator: "\n")) }

        // Then every one is there, line for line, as top-level code
        #expect(blocks.count >= 4)
        #expect(missing == [], "README blocks not mirrored in Tests/ReadmeMain/main.swift")
    }

    /// The non-blank lines of `code` other than imports, without their indentation.
    private func lines(_ code: String) -> [String] {
        code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }
}
