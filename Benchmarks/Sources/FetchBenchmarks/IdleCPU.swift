import Foundation

/// The idle-CPU case: how much CPU a process uses while its requests wait for a slow
/// server, through Fetch and through raw URLSession, with 1, 16 and 64 waiting.
///
/// ```
/// fetch-bench idle [--rounds 3] [--hold 3] [--waiting 1,16,64] [--starts cold,warm] [--limit N]
/// ```
///
/// It needs no nginx: the parent process serves `/hold` itself (``IdleCPUServer``) and
/// runs each round in a fresh child (``IdleCPURound``), whose own CPU time is measured.
/// `--limit` is `maximumConnectionsPerHost` for both clients; by default the number
/// waiting, so that every request waits on the wire rather than in line.
enum IdleCPU {
    /// The server's path that answers with its count of accepted connections.
    static let connectionsPath = "/_connections"

    /// One line of the table: a number waiting and a start, with each client's rounds.
    struct Case {
        var waiting: Int
        var start: IdleCPURound.Start
        var limit: Int
        var results: [Side: [IdleCPURound.Result]] = [:]
    }

    /// Parses the options, runs every case and prints the table.
    static func command(_ options: Options) throws {
        let rounds = try options.int("rounds") ?? 3
        let hold = try options.double("hold") ?? 3
        let waiting = try list(options, "waiting", default: "1,16,64") { Int($0) }
        let starts = try list(options, "starts", default: "cold,warm") { IdleCPURound.Start(rawValue: $0) }
        let limit = try options.int("limit")
        let server = try IdleCPUServer(hold: .milliseconds(Int(hold * 1000)))
        var cases: [Case] = []
        for count in waiting {
            for start in starts {
                var measured = Case(waiting: count, start: start, limit: limit ?? count)
                for round in 0..<rounds {
                    for side in round.isMultiple(of: 2) ? [Side.fetch, .raw] : [.raw, .fetch] {
                        let result = try Child.run(
                            [
                                "idle-round", "--port", "\(server.port)", "--side", side.rawValue,
                                "--waiting", "\(count)", "--limit", "\(measured.limit)", "--start", start.rawValue,
                            ], as: IdleCPURound.Result.self)
                        log(
                            "idle \(count) waiting, \(start.rawValue), round \(round + 1) \(side.title): "
                                + "\(Format.number(result.cpuSeconds)) s CPU in \(Format.number(result.seconds)) s, "
                                + "\(result.connections.map(String.init) ?? "?") new connections"
                                + (result.failures > 0
                                    ? ", \(result.failures) failed: \(result.firstFailure ?? "")" : ""))
                        measured.results[side, default: []].append(result)
                    }
                }
                cases.append(measured)
            }
        }
        print(markdown(cases, rounds: rounds, hold: hold).joined(separator: "\n"))
    }

    /// Runs one round in this (child) process and prints its result.
    static func round(_ options: Options) throws {
        guard let start = IdleCPURound.Start(rawValue: try options.required("start")) else {
            throw Main.UsageError(description: "--start is cold or warm")
        }
        try Child.report(
            IdleCPURound.run(
                side: try options.side(), port: try options.requiredInt("port"),
                waiting: try options.requiredInt("waiting"), limit: try options.requiredInt("limit"), start: start))
    }

    /// The table: CPU seconds per wall second (median over rounds, lowest and highest in
    /// brackets) and new connections per round, for each client.
    static func markdown(_ cases: [Case], rounds: Int, hold: Double) -> [String] {
        var lines = [
            "Idle CPU: requests waiting \(Format.number(hold)) s for their response; CPU s per wall s "
                + "(getrusage, user + system, of the client's process), median of \(rounds) rounds (lowest–highest):",
            "",
            "| Waiting | Warm-up | Limit | Fetch CPU/s | URLSession CPU/s | Fetch new conns | URLSession new conns |",
            "|---:|---|---:|---:|---:|---:|---:|",
        ]
        for measured in cases {
            func cores(_ side: Side) -> String {
                let values = (measured.results[side] ?? []).map(\.cores)
                guard let median = Statistics.median(values), let low = values.min(), let high = values.max() else {
                    return "—"
                }
                return "\(Format.number(median)) (\(Format.number(low))–\(Format.number(high)))"
            }
            func connections(_ side: Side) -> String {
                let values = (measured.results[side] ?? []).compactMap(\.connections).map(Double.init)
                return Statistics.median(values).map(Format.number) ?? "—"
            }
            let start = measured.start == .cold ? "none" : "\(measured.waiting) quick requests"
            lines.append(
                "| \(measured.waiting) | \(start) | \(measured.limit) | \(cores(.fetch)) | \(cores(.raw)) "
                    + "| \(connections(.fetch)) | \(connections(.raw)) |")
        }
        let failures = cases.flatMap { $0.results.values.joined() }.filter { $0.failures > 0 }
        if let first = failures.first {
            lines += [
                "", "**\(failures.map(\.failures).reduce(0, +)) requests failed**; first: \(first.firstFailure ?? "?")",
            ]
        }
        return lines
    }

    private static func list<Value>(
        _ options: Options, _ name: String, default text: String, _ parse: (String) -> Value?
    ) throws -> [Value] {
        try (options.values[name]?.last ?? text).split(separator: ",").map { item in
            guard let value = parse(String(item)) else {
                throw Main.UsageError(description: "--\(name): cannot read \(item)")
            }
            return value
        }
    }
}
