import Foundation
import Testing
import Fetch

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
            .hooking(pre: [PreRequestHook("count sends") { request in
                probe.recordSend(request)
                return request
            }])
            .enhanced(by: BaseURL(servers.httpbin.url("/")), BearerToken(store))
            .retrying(.constant(maxAttempts: 3, delay: .milliseconds(20)))
            .resuming(with: RefreshTokenHandler(store) {
                probe.recordRefresh()
                return "fresh-token"
            })
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
}
