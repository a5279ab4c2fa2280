import Foundation
import Testing

/// The transfer server of the suite that is running: large generated downloads, uploads
/// counted and multipart forms parsed as they stream.
enum TransferServer {
    @TaskLocal static var current: TestServer?

    /// The running server; fails the test when the suite has none.
    static func require() throws -> TestServer {
        try #require(current, "this suite needs the .transferServer trait")
    }
}

/// Starts `transfer_server.py` once for a suite and stops it when its tests are done.
struct TransferServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try TestServer(script: "transfer_server.py")
        defer { server.stop() }
        try await TransferServer.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == TransferServerTrait {
    /// Runs the suite against the transfer server on 127.0.0.1.
    static var transferServer: Self { TransferServerTrait() }
}
