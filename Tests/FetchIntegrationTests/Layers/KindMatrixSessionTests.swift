import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport
import FetchCaching

/// Every layer with every kind of call, over a real `Session` against the fault server's
/// `/bytes` (byte i of the body is i % 256): the caller gets exactly the bytes the server
/// sent, and the cache stores a body only when it had it whole (a plain call).
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct KindMatrixSessionTests {
    /// One layer over the session, as a caller would add it.
    enum Layer: String, CaseIterable, Sendable {
        case enhancers, verifier, retry, refresh, hooks, errorHandlers, logging, activity, coding
        case coalescing, caching

        func wrap(_ session: Session, base: URL, storage: MemoryCacheStorage) -> any RequestPerforming {
            switch self {
            case .enhancers: session.enhanced(by: BaseURL(base), BearerToken { "t" })
            case .verifier:
                session.enhanced(by: ContentTypeVerifier("application/octet-stream"), StatusVerifier(200..<300))
            case .retry: session.retrying(.exponential(maxAttempts: 2))
            case .refresh: session.refreshing(with: RefreshTokenHandler { done in done(.success(())) })
            case .hooks:
                session.hooking(
                    pre: [PreRequestHook("pass") { $0 }], post: [PostRequestHook("pass") { _, _ in .continue }])
            case .errorHandlers:
                session.handlingErrors([CodeErrorHandler(.notConnected) { error, _ in .replace(error) }])
            case .logging: session.logging(LogConfiguration(options: .all) { _ in })
            case .activity: session.reportingActivity(to: ActivityCounter { _ in })
            case .coding: session.coding(with: Coders())
            case .coalescing: session.coalescing()
            case .caching: session.caching(CacheConfiguration(storage: storage))
            }
        }
    }

    static let size = 200_000
    static let expected = Data((0..<size).map { UInt8($0 % 256) })

    /// What a call of `kind` through `performer` handed its caller.
    private func received(_ kind: CallKind.Name, through performer: any RequestPerforming, _ request: BasicRequest)
        async throws -> Data
    {
        switch kind {
        case .plain:
            return try await performer.response(for: request).body
        case .upload:
            var upload = request
            upload.method = .post
            upload.body = .data(Data("up".utf8))
            return try await performer.upload(upload).body
        case .download:
            let file = try await performer.download(request, to: .temporaryFile)
            defer { try? FileManager.default.removeItem(at: file.fileURL) }
            return try Data(contentsOf: file.fileURL)
        case .stream:
            return try await performer.stream(request).chunks.collected(within: standardBound, "the stream").reduce(
                Data(), +)
        }
    }

    @Test(arguments: Layer.allCases, CallKind.Name.allCases)
    func theCallerGetsTheBytesTheServerSent(layer: Layer, kind: CallKind.Name) async throws {
        // Given the layer over a session, and 200,000 bytes on the fault server
        let servers = try LoopbackServers.require()
        let storage = MemoryCacheStorage()
        let url = servers.faults.url("/bytes?n=\(Self.size)")
        let performer = layer.wrap(Session(), base: servers.faults.url("/"), storage: storage)
        let request = BasicRequest(url: layer == .enhancers ? URL(string: "bytes?n=\(Self.size)")! : url)

        // When a call of the kind is made
        let body = try await received(kind, through: performer, request)

        // Then the caller got every byte in order, and only a plain call's whole body was stored
        #expect(body.count == Self.size)
        #expect(body == Self.expected)
        let stored = storage.response(for: "GET " + url.absoluteString)
        #expect(stored?.body == (layer == .caching && kind == .plain ? Self.expected : nil))
    }
}
