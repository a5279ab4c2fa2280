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

/// Gives a suite the transfer server, starting it if no suite has yet.
struct TransferServerTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try await TestServer.shared("transfer_server.py")
        try await TransferServer.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == TransferServerTrait {
    /// Runs the suite against the transfer server on 127.0.0.1.
    static var transferServer: Self { TransferServerTrait() }
}
