import Foundation
import Testing

/// The servers one suite runs against: httpbin and the fault server.
final class LoopbackServers: Sendable {
    let httpbin: TestServer
    let faults: TestServer

    init() throws {
        httpbin = try TestServer(script: "httpbin_server.py")
        faults = try TestServer(script: "fault_server.py")
    }

    func stop() {
        httpbin.stop()
        faults.stop()
    }

    /// The servers of the suite that is running.
    @TaskLocal static var current: LoopbackServers?

    /// The running servers; fails the test when the suite has none.
    static func require() throws -> LoopbackServers {
        try #require(current, "this suite needs the .loopbackServers trait")
    }
}

/// Starts the loopback servers once for a suite and stops them when its tests are done.
struct LoopbackServersTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let servers = try LoopbackServers()
        defer { servers.stop() }
        try await LoopbackServers.$current.withValue(servers) { try await function() }
    }
}

extension Trait where Self == LoopbackServersTrait {
    /// Runs the suite against httpbin and the fault server on 127.0.0.1.
    static var loopbackServers: Self { LoopbackServersTrait() }
}
