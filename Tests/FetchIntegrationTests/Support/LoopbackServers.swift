import Foundation
import Testing

/// The servers the suites run against: httpbin and the fault server, one of each per test
/// process (see ``TestServer``).
struct LoopbackServers: Sendable {
    let httpbin: TestServer
    let faults: TestServer

    /// The servers of the suite that is running.
    @TaskLocal static var current: LoopbackServers?

    /// The running servers; fails the test when the suite has none.
    static func require() throws -> LoopbackServers {
        try #require(current, "this suite needs the .loopbackServers trait")
    }
}

/// Gives a suite the loopback servers, starting them if no suite has yet.
struct LoopbackServersTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        async let httpbin = TestServer.shared("httpbin_server.py")
        async let faults = TestServer.shared("fault_server.py")
        let servers = LoopbackServers(httpbin: try await httpbin, faults: try await faults)
        try await LoopbackServers.$current.withValue(servers) { try await function() }
    }
}

extension Trait where Self == LoopbackServersTrait {
    /// Runs the suite against httpbin and the fault server on 127.0.0.1.
    static var loopbackServers: Self { LoopbackServersTrait() }
}
