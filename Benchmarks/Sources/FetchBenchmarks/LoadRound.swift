import Foundation

/// One round of a throughput case for one client, run in a process of its own so that
/// peak memory and CPU time belong to that client alone.
enum LoadRound {
    /// Runs the warm-up and the measured requests of `workload` through `side`.
    static func run(_ workload: Workload, side: Side, server: Server) -> LoadResult {
        let before = server.acceptedConnections()
        let body = workload.bodySize > 0 ? Data(repeating: UInt8(ascii: "a"), count: workload.bodySize) : nil
        let configuration = sharedConfiguration(maximumConnections: workload.maximumConnections)
        let url = server.url(workload.path)
        let client: any LoadClient =
            switch side {
            case .fetch, .fetchStack, .fetchLayers:
                FetchClient(
                    url: url, method: workload.method, body: body,
                    expectedSize: workload.expectedSize, configuration: configuration, side: side)
            case .raw, .rawHop, .rawHeaders:
                RawClient(
                    url: url, method: workload.method, body: body, expectedSize: workload.expectedSize,
                    configuration: configuration, hop: side == .rawHop, setsHeaders: side == .rawHeaders)
            case .rawDelegate, .rawDelegateHop:
                RawDelegateClient(
                    url: url, method: workload.method, body: body, expectedSize: workload.expectedSize,
                    configuration: configuration, hop: side == .rawDelegateHop)
            }
        let warm = LoadDriver.run(client, count: workload.warmup, inFlight: workload.inFlight)
        let cpuStart = ProcessStats.cpuSeconds()
        let start = ContinuousClock.now
        let measured = LoadDriver.run(client, count: workload.count, inFlight: workload.inFlight)
        let elapsed = (ContinuousClock.now - start).seconds
        let cpu = ProcessStats.cpuSeconds() - cpuStart
        let after = server.acceptedConnections()
        return LoadResult(
            requests: workload.count, seconds: elapsed, cpuSeconds: cpu, peakBytes: ProcessStats.peakBytes(),
            connections: Server.accepted(from: before, to: after),
            failures: warm.failures + measured.failures, firstFailure: warm.first ?? measured.first
        )
    }
}
