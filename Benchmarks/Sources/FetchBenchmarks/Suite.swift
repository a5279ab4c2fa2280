import Foundation
import Fetch

/// The whole benchmark: server check, throughput cases, memory cases, layer overhead.
struct Suite {
    /// How much to run.
    struct Settings: Sendable {
        /// Rounds per throughput case (each round runs both clients, in alternating order).
        var rounds = 15
        /// Rounds per memory case and client.
        var memoryRounds = 3
        /// Rounds and calls per round of the layer overhead cases.
        var layerRounds = 9
        var layerCalls = 50_000
        /// Scales every request count (0.2 for a quick look).
        var scale = 1.0
        /// `maximumConnectionsPerHost` of both clients; Fetch's default when `nil`.
        var maximumConnections: Int?
        /// Requests in flight for every throughput case instead of the case's own (explore only).
        var inFlight: Int?
        /// Only throughput cases whose name contains this, when set.
        var only: String?
        /// Which parts to run.
        var parts: Set<Part> = Set(Part.allCases)
        /// nginx's log of the ended transfers (`$arg_tag $bytes_sent $status`), from run.sh.
        var transferLog: URL?
    }

    /// A part of the suite.
    enum Part: String, CaseIterable, Sendable {
        case throughput, memory, ended, layers, cache
    }

    /// One throughput case and everything measured for it.
    struct ThroughputCase {
        var workload: Workload
        var results: [Side: [LoadResult]] = [:]
        /// Share of one core nginx's worker used while each client ran.
        var serverBusy: [Double] = []
        /// wrk's requests per second for the same case.
        var serverCapacity: Double?
    }

    /// One memory case and its results per client.
    struct MemoryCase {
        var name: String
        var path: String
        var size: Int
        var destination: MemoryRound.Destination
        var results: [Side: [MemoryResult]] = [:]
    }

    let server: Server
    let settings: Settings
    let scratch: URL

    /// The four throughput cases of the issue.
    func workloads() -> [Workload] {
        let limit = settings.maximumConnections ?? Session.Configuration().maximumConnectionsPerHost
        func scaled(_ count: Int) -> Int { max(Int(Double(count) * settings.scale), 20) }
        let all = [
            Workload(
                name: "GET 200 B, 1 in flight", method: "GET", path: "/small.txt", expectedSize: 200,
                inFlight: 1, count: scaled(2_000), warmup: 50, maximumConnections: limit),
            Workload(
                name: "GET 200 B, 16 in flight", method: "GET", path: "/small.txt", expectedSize: 200,
                inFlight: 16, count: scaled(4_000), warmup: 160, maximumConnections: limit),
            Workload(
                name: "GET 1 MiB, 16 in flight", method: "GET", path: "/1m.bin", expectedSize: 1 << 20,
                inFlight: 16, count: scaled(500), warmup: 32, maximumConnections: limit),
            Workload(
                name: "POST 1 KB, 16 in flight", method: "POST", path: "/post", bodySize: 1024,
                expectedSize: 3, inFlight: 16, count: scaled(4_000), warmup: 160, maximumConnections: limit),
        ]
        return all.filter { settings.only.map($0.name.contains) ?? true }.map { workload in
            guard let inFlight = settings.inFlight else { return workload }
            var changed = workload
            changed.inFlight = inFlight
            changed.warmup = max(workload.warmup / workload.inFlight, 10) * inFlight
            return changed
        }
    }

    /// Runs every case and returns the report.
    func run() throws -> Report {
        var report = Report(settings: settings)
        for workload in settings.parts.contains(.throughput) ? workloads() : [] {
            var measured = ThroughputCase(workload: workload)
            log("server check: wrk on \(workload.name)")
            measured.serverCapacity = ServerCheck.requestsPerSecond(workload, server: server, scratch: scratch)
            for round in 0..<settings.rounds {
                for side in round.isMultiple(of: 2) ? [Side.fetch, .raw] : [.raw, .fetch] {
                    let result = try loadRound(workload, side: side, busy: &measured.serverBusy)
                    log(
                        "\(workload.name) round \(round + 1) \(side.title): "
                            + "\(Format.number(result.requestsPerSecond)) req/s, "
                            + "\(Format.number(result.cpuMicrosecondsPerRequest)) µs CPU/req, "
                            + "\(result.connections.map(String.init) ?? "?") connections"
                            + (result.failures > 0 ? ", \(result.failures) failures: \(result.firstFailure ?? "")" : "")
                    )
                    measured.results[side, default: []].append(result)
                }
            }
            report.throughput.append(measured)
        }
        if settings.parts.contains(.memory) {
            report.memory = try memoryCases()
        }
        if settings.parts.contains(.ended) {
            report.ended = try endedCases()
        }
        if settings.parts.contains(.cache) {
            log("cache and metrics")
            report.cache = try CacheBench.run(
                server: server, rounds: settings.layerRounds, calls: settings.layerCalls,
                requests: max(Int(1_000 * settings.scale), 50))
        }
        if settings.parts.contains(.layers) {
            log("layer overhead")
            report.layers = try LayerOverhead.run(rounds: settings.layerRounds, calls: settings.layerCalls)
        }
        return report
    }

    func loadRound(
        _ workload: Workload, side: Side, environment: [String: String] = [:],
        busy: inout [Double]
    ) throws -> LoadResult {
        let json = String(decoding: try JSONEncoder().encode(workload), as: UTF8.self)
        let serverBefore = server.workerCPUSeconds()
        let start = ContinuousClock.now
        let result = try Child.run(
            ["load", "--port", "\(server.port)", "--side", side.rawValue, "--workload", json],
            environment: environment, as: LoadResult.self
        )
        let elapsed = (ContinuousClock.now - start).seconds
        if let serverBefore, let serverAfter = server.workerCPUSeconds() {
            busy.append((serverAfter - serverBefore) / elapsed)
        }
        return result
    }

    /// The two memory cases of the issue.
    static let memoryCaseList = [
        MemoryCase(name: "100 MiB body into memory", path: "/100m.bin", size: 100 << 20, destination: .memory),
        MemoryCase(name: "1 GiB download to a file", path: "/1g.bin", size: 1 << 30, destination: .file),
    ]

    private func memoryCases() throws -> [MemoryCase] {
        var cases = Self.memoryCaseList
        for index in cases.indices {
            for round in 0..<settings.memoryRounds {
                for side in round.isMultiple(of: 2) ? [Side.fetch, .raw] : [.raw, .fetch] {
                    cases[index].results[side, default: []].append(
                        try memoryRound(cases[index], side: side, round: round))
                }
            }
        }
        return cases
    }

    /// Runs one memory case through `side` in a fresh process, with `environment` added to its environment.
    func memoryRound(
        _ memoryCase: MemoryCase, side: Side, round: Int,
        environment: [String: String] = [:]
    ) throws -> MemoryResult {
        let result = try Child.run(
            [
                "memory", "--port", "\(server.port)", "--side", side.rawValue, "--path", memoryCase.path,
                "--size", "\(memoryCase.size)", "--destination", memoryCase.destination.rawValue,
            ], environment: environment, as: MemoryResult.self)
        log(
            "\(memoryCase.name) round \(round + 1) \(side.title): "
                + (result.unavailable ?? result.failure
                    ?? "peak \(Format.megabytes(Double(result.peakBytes))), "
                    + "\(Format.megabytes(Double(result.peakOverBaseline))) over baseline"))
        return result
    }
}

/// Writes a progress line to standard error.
func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
