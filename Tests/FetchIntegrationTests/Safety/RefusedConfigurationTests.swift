import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// A session whose configuration is refused fails every call with that refusal, whatever
/// the request sets and whatever its kind, and sends nothing: checked against a listener
/// that counts every connection and byte it receives.
@Suite(.loopbackServers)
struct RefusedConfigurationTests {
    /// Each configuration a session is made with and then refuses.
    enum Refusal: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case userAgentWithCRLF, additionalHeaderWithCRLF, additionalHeaderNotText, urlCache

        /// The refusals of this platform: Apple platforms honour a `URLCache`.
        static var ofThisPlatform: [Refusal] {
            #if canImport(FoundationNetworking)
            allCases
            #else
            allCases.filter { $0 != .urlCache }
            #endif
        }

        var testDescription: String { rawValue }

        /// A session made with the refused configuration, by an initializer that does not
        /// refuse it (`Session(urlSessionConfiguration:configuration:)` throws for a `URLCache`).
        func session() throws -> Session {
            var configuration = Session.Configuration()
            let settings = URLSessionConfiguration.ephemeral
            switch self {
            case .userAgentWithCRLF: configuration.userAgent = "Fetch\r\nX-Injected: yes"
            case .urlCache: configuration.urlCache = URLCache(memoryCapacity: 1024, diskCapacity: 0, diskPath: nil)
            case .additionalHeaderWithCRLF: settings.httpAdditionalHeaders = ["X-Note": "a\r\nX-Injected: yes"]
            case .additionalHeaderNotText: settings.httpAdditionalHeaders = ["X-Count": 7]
            }
            switch self {
            case .userAgentWithCRLF, .urlCache: return Session(configuration: configuration)
            case .additionalHeaderWithCRLF, .additionalHeaderNotText:
                return try Session(urlSessionConfiguration: settings)
            }
        }

        /// The code of the refusal, and words its reason holds.
        var expected: (code: FetchError.Code, says: String) {
            switch self {
            case .userAgentWithCRLF: (.invalidRequest, "User-Agent")
            case .additionalHeaderWithCRLF: (.invalidRequest, "httpAdditionalHeaders")
            case .additionalHeaderNotText: (.invalidRequest, "not text")
            case .urlCache: (.unsupportedSetting, "urlCache")
            }
        }
    }

    /// Makes a call of `kind` to `url` through `session`, with the request's own `User-Agent`
    /// or without one, and returns once it ended.
    static func call(
        _ kind: CallKind.Name, to url: URL, ownAgent: Bool, through session: Session
    ) async throws {
        var request = BasicRequest(url: url, headers: ownAgent ? ["User-Agent": "mine/1.0"] : [:])
        switch kind {
        case .plain:
            _ = try await session.response(for: request)
        case .download:
            let file = try await session.download(request, to: .temporaryFile)
            try? FileManager.default.removeItem(at: file.fileURL)
        case .upload:
            request.method = .post
            request.body = .data(Data("up".utf8))
            _ = try await session.upload(request)
        case .stream:
            let stream = try await session.stream(request)
            for try await _ in stream.chunks {}
        }
    }

    @Test(arguments: Refusal.ofThisPlatform, CallKind.Name.allCases)
    func everyCallFailsWithTheRefusalAndSendsNothing(refusal: Refusal, kind: CallKind.Name) async throws {
        // Given a session with the refused configuration, and a listener that counts what it receives
        let servers = try LoopbackServers.require()
        let port = try await servers.faults.openSink()
        let url = URL(string: "http://127.0.0.1:\(port)/target")!
        let session = try refusal.session()

        for ownAgent in [false, true] {
            // When a call of the kind is made, without and with the request's own User-Agent
            let error = await #expect(throws: FetchError.self) {
                try await Self.call(kind, to: url, ownAgent: ownAgent, through: session)
            }
            // Then it fails with the refusal, naming the call
            #expect(error?.code == refusal.expected.code, "own User-Agent: \(ownAgent)")
            #expect(error?.reason.contains(refusal.expected.says) == true, "\(String(describing: error))")
            #expect(error?.url == url)
        }
        // And the listener received no connection and no byte
        #expect(try await servers.faults.sinkStats(port: port) == SinkStats(connections: 0, bytes: 0))
    }

    @Test(arguments: CallKind.Name.allCases)
    func theSameCallsFromASessionNotRefusedReachTheListener(kind: CallKind.Name) async throws {
        // Given a session with the default configuration, and a listener that counts what it receives
        let servers = try LoopbackServers.require()
        let port = try await servers.faults.openSink()
        let url = URL(string: "http://127.0.0.1:\(port)/target")!
        let session = Session()

        // When the same calls are made
        for ownAgent in [false, true] { try await Self.call(kind, to: url, ownAgent: ownAgent, through: session) }

        // Then both reached the listener
        #expect(try await servers.faults.sinkStats(port: port).connections == 2)
    }
}
