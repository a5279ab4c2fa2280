import Foundation

/// Runs one throughput case through several clients, interleaved round after round, to
/// see where the time goes: `fetch-bench explore --port P --case "1 in flight"
/// --sides fetch,raw,raw-delegate,raw-hop,raw-delegate-hop`.
///
/// A client may be named with environment variables for its process after `@`, to compare
/// a change behind a switch with the code as it is: `--sides fetch,fetch@SWITCH=1,raw`.
enum Explore {
    /// A client and the environment variables its processes get.
    struct Variant: Hashable {
        var name: String
        var side: Side
        var environment: [String: String]

        init(_ text: String) throws {
            let parts = text.split(separator: "@").map(String.init)
            guard let first = parts.first, let side = Side(rawValue: first) else {
                throw Main.UsageError(description: "unknown client \(text)")
            }
            name = text
            self.side = side
            environment = [:]
            for assignment in parts.dropFirst() {
                let pair = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                environment[pair[0]] = pair.count > 1 ? pair[1] : "1"
            }
        }
    }

    static func run(server: Server, settings: Suite.Settings, caseName: String, sides: [Variant]) throws {
        let suite = Suite(server: server, settings: settings, scratch: FileManager.default.temporaryDirectory)
        if let memoryCase = Suite.memoryCaseList.first(where: { $0.name.contains(caseName) }) {
            return try runMemory(memoryCase, suite: suite, sides: sides)
        }
        guard let workload = suite.workloads().first(where: { $0.name.contains(caseName) }) else {
            throw Main.UsageError(description: "no case named like \(caseName)")
        }
        var results: [String: [LoadResult]] = [:]
        for round in 0..<settings.rounds {
            // Rotate the order so no client always runs first.
            let order = (0..<sides.count).map { sides[($0 + round) % sides.count] }
            for side in order {
                var busy: [Double] = []
                let result = try suite.loadRound(workload, side: side.side, environment: side.environment, busy: &busy)
                log(
                    "\(workload.name) round \(round + 1) \(side.name): \(Format.number(result.requestsPerSecond)) req/s, "
                        + "\(Format.number(result.cpuMicrosecondsPerRequest)) µs CPU/req, \(result.connections ?? -1) connections"
                        + (result.failures > 0 ? ", \(result.failures) failures: \(result.firstFailure ?? "")" : ""))
                results[side.name, default: []].append(result)
            }
        }
        let raw = results["raw"] ?? []
        print(
            "\(workload.name) (\(workload.inFlight) in flight), \(settings.rounds) rounds of "
                + "\(workload.warmup) + \(workload.count) requests, maximumConnectionsPerHost \(workload.maximumConnections):\n"
        )
        print("| Client | req/s | vs raw | CPU µs/request | vs raw | connections (max) |")
        print("|---|---:|---:|---:|---:|---:|")
        for side in sides {
            let mine = results[side.name] ?? []
            let speed = Statistics.median(zip(mine, raw).map { $0.requestsPerSecond / $1.requestsPerSecond })
            let cpu = Statistics.median(
                zip(mine, raw).map { $0.cpuMicrosecondsPerRequest / $1.cpuMicrosecondsPerRequest })
            let connections = mine.compactMap(\.connections).map(Double.init)
            print(
                "| \(side.name) | \(Format.number(Statistics.median(mine.map(\.requestsPerSecond)) ?? 0)) | "
                    + "\(Format.ratio(speed)) | \(Format.number(Statistics.median(mine.map(\.cpuMicrosecondsPerRequest)) ?? 0)) | "
                    + "\(Format.ratio(cpu)) | \(Format.number(Statistics.median(connections) ?? 0)) "
                    + "(\(Format.number(connections.max() ?? 0))) |")
        }
    }

    /// Runs a memory case through each client, `memoryRounds` times, in rotating order.
    private static func runMemory(_ memoryCase: Suite.MemoryCase, suite: Suite, sides: [Variant]) throws {
        var results: [String: [MemoryResult]] = [:]
        for round in 0..<suite.settings.memoryRounds {
            for index in sides.indices {
                let side = sides[(index + round) % sides.count]
                results[side.name, default: []].append(
                    try suite.memoryRound(memoryCase, side: side.side, round: round, environment: side.environment)
                )
            }
        }
        print("\(memoryCase.name), \(suite.settings.memoryRounds) fresh processes per client:\n")
        print("| Client | peak RSS (median) | peak RSS (each) | over baseline (median) |")
        print("|---|---:|---|---:|")
        for side in sides {
            let mine = results[side.name] ?? []
            if let reason = mine.first?.unavailable ?? mine.compactMap(\.failure).first {
                print("| \(side.name) | \(reason) | | |")
                continue
            }
            let peaks = mine.map { Double($0.peakBytes) }
            print(
                "| \(side.name) | \(Format.megabytes(Statistics.median(peaks))) | "
                    + peaks.map { Format.megabytes($0) }.joined(separator: ", ") + " | "
                    + "\(Format.megabytes(Statistics.median(mine.map { Double($0.peakOverBaseline) }))) |")
        }
    }
}
