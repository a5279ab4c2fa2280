import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting
import TestSupport
@testable import FetchCaching

/// Every layer with every kind of call, over the spy: the caller gets exactly the bytes the
/// spy sent, and the cache stores a body only when it had it whole (a plain call).
struct KindMatrixTests {
    /// One layer over the spy, as a caller would add it.
    enum Layer: String, CaseIterable, Sendable {
        case enhancers, verifier, retry, refresh, hooks, errorHandlers, logging, activity, coding
        case coalescing, caching

        func wrap(_ spy: SpyPerformer, storage: MemoryCacheStorage) -> any RequestPerforming {
            switch self {
            case .enhancers: spy.enhanced(by: BaseURL("https://api.example.com"), BearerToken { "t" })
            case .verifier: spy.enhanced(by: ContentTypeVerifier("application/octet-stream"), StatusVerifier(200..<300))
            case .retry: spy.retrying(.exponential(maxAttempts: 2), scheduler: ImmediateScheduler())
            case .refresh: spy.refreshing(with: RefreshTokenHandler { done in done(.success(())) })
            case .hooks:
                spy.hooking(
                    pre: [PreRequestHook("pass") { $0 }], post: [PostRequestHook("pass") { _, _ in .continue }])
            case .errorHandlers: spy.handlingErrors([CodeErrorHandler(.notConnected) { error, _ in .replace(error) }])
            case .logging: spy.logging(LogConfiguration(options: .all) { _ in })
            case .activity: spy.reportingActivity(to: ActivityCounter { _ in })
            case .coding: spy.coding(with: Coders())
            case .coalescing: spy.coalescing()
            case .caching: spy.caching(CacheConfiguration(storage: storage))
            }
        }

        /// Whether calls go through it with a relative URL (it puts the base in front).
        var takesRelativeURL: Bool { self == .enhancers }
    }

    static let payload = Data((0..<3000).map { UInt8($0 % 256) })
    static let head: HTTPHeaders = ["Content-Type": "application/octet-stream", "Cache-Control": "max-age=60"]

    /// What a call of `kind` through `performer` handed its caller: the body in memory, the
    /// file's contents, or the chunks joined.
    private func received(
        _ kind: CallKind.Name, through performer: any RequestPerforming, request: BasicRequest, folder: URL
    ) throws -> Data? {
        let outcome = LockedBox<Result<Data, any Error>?>(nil)
        switch kind {
        case .plain:
            performer.perform(request) { result in outcome.update { $0 = result.map(\.body) } }
        case .upload:
            var upload = request
            upload.method = .post
            upload.body = .data(Data("up".utf8))
            performer.upload(upload, progress: nil) { result in outcome.update { $0 = result.map(\.body) } }
        case .download:
            let file = folder.appendingPathComponent(UUID().uuidString)
            performer.download(request, to: .file(file), progress: nil) { result in
                outcome.update { $0 = result.flatMap { file in Result { try Data(contentsOf: file.fileURL) } } }
            }
        case .stream:
            let chunks = LockedBox(Data())
            performer.stream(request, onChunk: { chunk in chunks.update { $0.append(chunk) } }) { result in
                outcome.update { $0 = result.map { _ in chunks.value } }
            }
        }
        return try outcome.value?.get()
    }

    @Test(arguments: Layer.allCases, CallKind.Name.allCases)
    func theCallerGetsTheBytesTheServerSent(layer: Layer, kind: CallKind.Name) throws {
        // Given the layer over a spy that answers the kind with a 3,000-byte body (a stream
        // in three chunks), which a cache may store for a minute
        let answer: SpyPerformer.Answer =
            switch kind {
            case .plain, .upload, .download: .response(Response(status: 200, headers: Self.head, body: Self.payload))
            case .stream:
                .stream(
                    [Self.payload.prefix(1000), Self.payload.dropFirst(1000).prefix(1000), Self.payload.suffix(1000)]
                        .map { Data($0) }, headers: Self.head)
            }
        let spy = SpyPerformer([answer])
        let storage = MemoryCacheStorage()
        let performer = layer.wrap(spy, storage: storage)
        let url = layer.takesRelativeURL ? "feed" : "https://api.example.com/feed"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-matrix-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // When the call is made
        let body = try received(kind, through: performer, request: BasicRequest(url: URL(string: url)!), folder: folder)

        // Then the caller got every byte, from one call of that kind to the spy, and only a
        // plain call's whole body was stored
        #expect(body == Self.payload)
        #expect(spy.calls.map(\.kind) == [kind])
        let stored = storage.response(for: "GET https://api.example.com/feed")
        #expect(stored?.body == (layer == .caching && kind == .plain ? Self.payload : nil))
    }
}
