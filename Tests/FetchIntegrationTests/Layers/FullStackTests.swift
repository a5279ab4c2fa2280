import Foundation
import Testing
import Fetch
import TestSupport

/// The stack from the README (base URL, bearer auth, retry, refresh-and-resume, logging)
/// over a real `Session`, against httpbin on 127.0.0.1.
@Suite(.loopbackServers)
struct FullStackTests {
    struct BearerEcho: Decodable, Parsable {
        let authenticated: Bool
        let token: String
    }

    /// Counts what reaches the `Session` and collects log lines.
    final class Probe: @unchecked Sendable {
        // `lock` guards `sent`, `refreshes` and `lines`.
        private let lock = NSLock()
        private var sent: [String] = []
        private var refreshes = 0
        private var lines: [String] = []

        func recordSend(_ request: any Request) { lock.withLock { sent.append(request.url.absoluteString) } }
        func recordRefresh() { lock.withLock { refreshes += 1 } }
        func recordLine(_ line: String) { lock.withLock { lines.append(line) } }
        var sends: [String] { lock.withLock { sent } }
        var refreshCount: Int { lock.withLock { refreshes } }
        var log: [String] { lock.withLock { lines } }
    }

    func makeStack(_ servers: LoopbackServers, store: TokenStore, probe: Probe) -> some RequestPerforming {
        Session()
            .hooking(pre: [
                PreRequestHook("count sends") { request in
                    probe.recordSend(request)
                    return request
                }
            ])
            .enhanced(by: BaseURL(servers.httpbin.url("/")), BearerToken(store))
            .retrying(.constant(maxAttempts: 3, delay: .milliseconds(20)))
            .resuming(
                with: RefreshTokenHandler(store) {
                    probe.recordRefresh()
                    return "fresh-token"
                }
            )
            .logging(LogConfiguration(options: .headers) { probe.recordLine($0.message) })
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheCallResentWithTheNewToken() async throws {
        // Given the stack over a Session, with a token httpbin's /bearer will not accept (none)
        let servers = try LoopbackServers.require()
        let store = TokenStore(nil)
        let probe = Probe()
        let api = makeStack(servers, store: store, probe: probe)

        // When a relative request goes through it
        let echo = try await api.perform(BasicRequest(url: URL(string: "bearer")!), as: BearerEcho.self)

        // Then the 401 started one refresh, and the resend carried the new token
        #expect(echo.authenticated)
        #expect(echo.token == "fresh-token")
        #expect(probe.refreshCount == 1)
        #expect(probe.sends.count == 2)
        // And the log has one entry for the call, with the token hidden
        let log = probe.log.joined(separator: "\n")
        #expect(probe.log.count == 1)
        #expect(log.contains("/bearer"))
        #expect(log.contains("> Authorization: <redacted>"))
        #expect(!log.contains("fresh-token"))
    }

    @Test func aFailedRefreshReachesTheStatusHandlerAboveAsTheSignOut() async throws {
        // Given the README's sign-out stack over a Session: a 401 handler above a refresh
        // that fails, and a token httpbin's /bearer will not accept (none)
        enum AppError: Error { case signedOut, refreshTokenExpired }
        let servers = try LoopbackServers.require()
        let store = TokenStore(nil)
        let probe = Probe()
        let api = Session()
            .enhanced(by: BaseURL(servers.httpbin.url("/")), BearerToken(store))
            .retrying(.exponential(maxAttempts: 3))
            .resuming(with: RefreshTokenHandler(store) { throw AppError.refreshTokenExpired })
            .handlingErrors([
                StatusErrorHandler(401) { response, _ in
                    probe.recordLine("handled \(response.status)")
                    return .replace(AppError.signedOut)
                }
            ])

        // When a call gets the 401 and the refresh fails
        let error = await #expect(throws: AppError.self) {
            try await api.perform(BasicRequest(url: URL(string: "bearer")!), as: Data.self)
        }

        // Then the handler saw the 401 and the caller got its replacement
        #expect(error == .signedOut)
        #expect(probe.log == ["handled 401"])
    }

    @Test func aServerErrorIsRetriedUpToTheLimitThenReported() async throws {
        // Given the stack with a valid token
        let servers = try LoopbackServers.require()
        let store = TokenStore("valid")
        let probe = Probe()
        let api = makeStack(servers, store: store, probe: probe)

        // When a GET keeps getting 503
        let error = await #expect(throws: FetchError.self) {
            try await api.perform(BasicRequest(url: URL(string: "status/503")!), as: Data.self)
        }

        // Then it was sent three times, and the caller sees the 503
        #expect(error?.code == .httpStatus)
        #expect(error?.status == 503)
        #expect(probe.sends.count == 3)
        #expect(probe.refreshCount == 0)
    }

    @Test func aDownloadIsRefreshedAfterA401AndWrittenWithTheNewTokensAnswer() async throws {
        // Given the stack over a Session, with no token, and an empty folder
        let servers = try LoopbackServers.require()
        let folder = try ScratchFolder()
        let store = TokenStore(nil)
        let probe = Probe()
        let api = makeStack(servers, store: store, probe: probe)
        let progress = ProgressLog()

        // When httpbin's /bearer is downloaded to a file through it, relative to the base URL
        let file = try await api.download(
            BasicRequest(url: URL(string: "bearer")!), to: .file(folder.file("bearer.json")), progress: progress.record
        )

        // Then the 401 started one refresh, the resend carried the new token, and the file
        // holds httpbin's answer to it; the call was logged once, with the token hidden
        let echo = try JSONDecoder().decode(BearerEcho.self, from: Data(contentsOf: file.fileURL))
        #expect(echo.token == "fresh-token")
        #expect(file.status == 200)
        #expect(probe.refreshCount == 1)
        #expect(probe.sends.count == 2)
        #expect(probe.log.count == 1)
        #expect(probe.log.first?.contains("/bearer") == true)
        #expect(!probe.log.joined().contains("fresh-token"))
        #expect(progress.reports.last?.isFinished == true)
        #expect(try folder.contents() == ["bearer.json"])
    }

    @Test func aDownloadWithCallbacksIsRetriedAndLeavesNoFileWhenItKeepsFailing() async throws {
        // Given the stack over a Session with a valid token, and an empty folder
        let servers = try LoopbackServers.require()
        let folder = try ScratchFolder()
        let probe = Probe()
        let api = makeStack(servers, store: TokenStore("valid"), probe: probe)

        // When a download keeps getting 503, through the callback API
        let result = try await within("the download's completion") {
            await withCheckedContinuation { continuation in
                api.download(BasicRequest(url: URL(string: "status/503")!), to: .file(folder.file("x")), progress: nil)
                { result in
                    continuation.resume(returning: result)
                }
            }
        }

        // Then it was sent three times, fails with the 503, and wrote nothing
        #expect(throws: FetchError.self) { try result.get() }
        if case .failure(let error as FetchError) = result { #expect(error.status == 503) }
        #expect(probe.sends.count == 3)
        #expect(try folder.contents().isEmpty)
    }

    @Test func anUploadCarriesTheTokenAndItsBodyAsyncAndWithCallbacks() async throws {
        // Given the stack over a Session with a valid token, and a 100 KB file
        let servers = try LoopbackServers.require()
        let folder = try ScratchFolder()
        let probe = Probe()
        let api = makeStack(servers, store: TokenStore("valid"), probe: probe)
        let photo = try folder.makeFile("photo.bin", size: 100_000)
        let request = BasicRequest(
            url: URL(string: "anything/photos")!, method: .put,
            body: .file(photo, contentType: "application/octet-stream")
        )
        let progress = ProgressLog()

        // When it is uploaded through the stack, once async and once with callbacks
        let async = try await api.upload(request, progress: progress.record)
        let callback = try await within("the upload's completion") {
            try await withCheckedThrowingContinuation { continuation in
                api.upload(request, progress: nil) { continuation.resume(with: $0) }
            }
        }

        // Then httpbin saw the base URL, the token and the whole body both times
        for response in [async, callback] {
            let echo = try JSONDecoder().decode(AnythingEcho.self, from: response.body)
            #expect(response.status == 200)
            #expect(echo.url.hasSuffix("/anything/photos"))
            #expect(echo.headers["Authorization"] == "Bearer valid")
            #expect(echo.headers["Content-Length"] == "100000")
        }
        #expect(probe.sends.count == 2)
        #expect(progress.reports.last == .finished(100_000))
    }

    struct AnythingEcho: Decodable {
        let url: String
        let headers: [String: String]
    }

    /// Collects progress reports.
    final class ProgressLog: @unchecked Sendable {
        // `lock` guards `all`.
        private let lock = NSLock()
        private var all: [TransferProgress] = []
        var record: @Sendable (TransferProgress) -> Void {
            { report in self.lock.withLock { self.all.append(report) } }
        }
        var reports: [TransferProgress] { lock.withLock { all } }
    }
}
