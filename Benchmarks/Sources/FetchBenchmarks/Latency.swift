import Foundation

/// The latency cases: GETs sent at once to an origin that answers each after a delay, over
/// HTTP/2 and HTTP/1.1 with TLS and over plain HTTP/1.1, through a default `Session`, raw
/// `URLSession(configuration: .default)` and the curl command line with `--parallel`.
///
/// ```
/// fetch-bench latency [--rounds 3] [--protocols h2,http1,plain] [--counts 1,16,100]
///                     [--delays 50,200] [--starts cold,warm] [--sides fetch,raw,curl]
///                     [--server PATH]
/// ```
///
/// The server is the test suite's http2_server.py (see ``LatencyServer``); it counts, per
/// round, how many requests were in flight at once and how many connections they came on.
/// Each round runs each client in a fresh process (``LatencyRound``), the clients taking turns
/// to go first. A side `fetch@N` is a session whose `maximumConnectionsPerHost` is N. curl is timed as a whole process, and only cold: it multiplexes on one
/// connection by waiting for the first (`CURLOPT_PIPEWAIT`).
enum Latency {
    /// One line of the table, with each client's rounds.
    struct Case {
        var scheme: String
        var count: Int
        var delay: Int
        var start: LatencyRound.Start
        var rounds: [String: [(LatencyRound.Result, LatencyServer.Stats)]] = [:]
    }

    static let protocolNames = ["h2": "HTTP/2, TLS", "http1": "HTTP/1.1, TLS", "plain": "HTTP/1.1, plain"]

    static func command(_ options: Options) throws {
        let rounds = try options.int("rounds") ?? 3
        func list(_ name: String, _ text: String) -> [String] {
            (options.values[name]?.last ?? text).split(separator: ",").map(String.init)
        }
        let script =
            options.values["server"]?.last
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/FetchIntegrationTests/Servers/http2_server.py").path
        let server = try LatencyServer(script: script)
        let sides = list("sides", "fetch,raw,curl")
        var cases: [Case] = []
        for scheme in list("protocols", "h2,http1,plain") {
            guard let port = server.ports[scheme] else { throw Main.UsageError(description: "no protocol \(scheme)") }
            let base = "\(scheme == "plain" ? "http" : "https")://127.0.0.1:\(port)"
            for count in list("counts", "1,16,100").compactMap({ Int($0) }) {
                for delay in list("delays", "50,200").compactMap({ Int($0) }) {
                    for start in list("starts", "cold,warm").compactMap(LatencyRound.Start.init) {
                        var measured = Case(scheme: scheme, count: count, delay: delay, start: start)
                        for round in 0..<rounds {
                            let order = round.isMultiple(of: 2) ? sides : sides.reversed()
                            for side in order where side != "curl" || start == .cold {
                                let tag = "\(side)-\(scheme)-\(count)-\(delay)-\(start.rawValue)-\(round)"
                                let result = try run(
                                    side: side, base: base, count: count, delay: delay, start: start, tag: tag,
                                    launcher: server.launcher)
                                let stats = try server.stats(tag: tag)
                                log(
                                    "latency \(tag): \(Format.number(result.seconds)) s, peak \(stats.peakInFlight) "
                                        + "in flight, \(stats.opened) opened, \(stats.protocols)"
                                        + (result.failures > 0
                                            ? ", \(result.failures) failed: \(result.firstFailure ?? "")" : ""))
                                measured.rounds[side, default: []].append((result, stats))
                            }
                        }
                        cases.append(measured)
                    }
                }
            }
        }
        print(markdown(cases, sides: sides, rounds: rounds).joined(separator: "\n"))
    }

    /// Runs one round in this (child) process and prints its result.
    static func round(_ options: Options) throws {
        guard let start = LatencyRound.Start(rawValue: try options.required("start")) else {
            throw Main.UsageError(description: "--start is cold or warm")
        }
        try Child.report(
            LatencyRound.run(
                side: try options.required("side"), base: try options.required("base"),
                count: try options.requiredInt("count"),
                delay: try options.requiredInt("delay"), start: start, tag: try options.required("tag")))
    }

    private static func run(
        side: String, base: String, count: Int, delay: Int, start: LatencyRound.Start, tag: String, launcher: [String]
    ) throws -> LatencyRound.Result {
        guard side == "curl" else {
            return try Child.run(
                [
                    "latency-round", "--side", side, "--base", base, "--count", "\(count)", "--delay", "\(delay)",
                    "--start", start.rawValue, "--tag", tag,
                ], launcher: launcher, as: LatencyRound.Result.self)
        }
        let url = "\(base)/delay?ms=\(delay)&tag=\(tag)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher[0])
        process.arguments =
            launcher.dropFirst()
            + ["/usr/bin/curl", "--silent", "--fail", "--parallel", "--parallel-max", "\(max(count, 1))"]
            + Array(repeating: [url, "--output", "/dev/null"], count: count).joined()
        process.standardError = FileHandle.nullDevice
        let cpuStart = ProcessStats.childrenCPUSeconds()
        let started = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let failed = process.terminationStatus != 0
        return LatencyRound.Result(
            seconds: (ContinuousClock.now - started).seconds,
            cpuSeconds: ProcessStats.childrenCPUSeconds() - cpuStart, failures: failed ? 1 : 0,
            firstFailure: failed ? "curl exited with \(process.terminationStatus)" : nil)
    }

    static func markdown(_ cases: [Case], sides: [String], rounds: Int) -> [String] {
        let titles = ["fetch": "Fetch", "raw": "URLSession", "curl": "curl"]

        let shown = sides.map { titles[$0] ?? $0 }
        var lines = [
            "Latency: N GETs sent at once, each answered after the delay; seconds from the first send to the "
                + "last completion, median of \(rounds) rounds (curl: the whole process); peak requests in flight "
                + "and connections opened at the server, medians:",
            "",
            "| Protocol | N | Delay | Start | " + shown.map { "\($0) s" }.joined(separator: " | ")
                + " | Fetch/raw | Fetch/curl | Peak in flight (" + shown.joined(separator: ", ")
                + ") | Connections opened (" + shown.joined(separator: ", ") + ") | CPU s ("
                + shown.joined(separator: ", ")
                + ") | Failed |",
            "|---|---:|---:|---|" + String(repeating: "---:|", count: sides.count + 5) + "---:|",
        ]
        for measured in cases {
            func median(_ side: String, _ value: (LatencyRound.Result, LatencyServer.Stats) -> Double) -> Double? {
                Statistics.median((measured.rounds[side] ?? []).map(value))
            }
            func seconds(_ side: String) -> Double? { median(side) { result, _ in result.seconds } }
            func ratio(_ other: String) -> String {
                guard let fetch = seconds("fetch"), let base = seconds(other) else { return "—" }
                return Format.ratio(fetch / base)
            }
            func joined(_ value: @escaping (LatencyRound.Result, LatencyServer.Stats) -> Double) -> String {
                sides.map { median($0, value).map(Format.number) ?? "—" }.joined(separator: ", ")
            }
            let failed = measured.rounds.values.joined().map(\.0.failures).reduce(0, +)
            lines.append(
                "| \(protocolNames[measured.scheme] ?? measured.scheme) | \(measured.count) | \(measured.delay) ms "
                    + "| \(measured.start.rawValue) | "
                    + sides.map { seconds($0).map(Format.number) ?? "—" }.joined(separator: " | ")
                    + " | \(ratio("raw")) | \(ratio("curl")) | \(joined { Double($1.peakInFlight) }) "
                    + "| \(joined { Double($1.opened) }) | \(joined { result, _ in result.cpuSeconds }) | \(failed) |")
        }
        let failures = cases.flatMap { $0.rounds.values.joined() }.compactMap(\.0.firstFailure)
        if let first = failures.first { lines += ["", "First failure: \(first)"] }
        return lines
    }
}
