import Foundation

/// `fetch-bench streams`: the stream cases, each in fresh processes, Fetch and raw URLSession
/// with a bare data delegate alternating, and their Markdown report.
enum StreamSuite {
    /// One case: how the stream is read and how fast it is sent, with or without probes.
    struct Case: Sendable {
        var reader: StreamCase.Reader
        var rate: EndedTransfer.Rate
        var probes: Int
        var results: [Side: [StreamCase.Result]] = [:]

        var name: String {
            probes == 0
                ? "1 GiB at \(rate.title), read at full speed"
                : "1 GiB at \(rate.title), reader \(reader == .fast ? "reading at full speed" : "stopped")"
        }
    }

    /// Runs every case `rounds` times per client.
    static func run(server: Server, transferLog: URL, rounds: Int, probes: Int, only: String?) throws -> [Case] {
        var cases = [Case(reader: .fast, rate: .full, probes: 0)]
        for rate in [EndedTransfer.Rate.limited, .full] {
            for reader in StreamCase.Reader.allCases { cases.append(Case(reader: reader, rate: rate, probes: probes)) }
        }
        if let only { cases.removeAll { !$0.name.contains(only) } }
        for round in 0..<rounds {
            for index in cases.indices {
                for side in round.isMultiple(of: 2) ? [Side.fetch, .raw] : [.raw, .fetch] {
                    let result = try Child.run(
                        [
                            "stream-case", "--port", "\(server.port)", "--side", side.rawValue,
                            "--reader", cases[index].reader.rawValue, "--rate", cases[index].rate.rawValue,
                            "--probes", "\(cases[index].probes)", "--transfer-log", transferLog.path,
                        ], as: StreamCase.Result.self)
                    log("\(cases[index].name) round \(round + 1) \(side.title): \(describe(result))")
                    cases[index].results[side, default: []].append(result)
                }
            }
        }
        return cases
    }

    private static func describe(_ result: StreamCase.Result) -> String {
        var parts = [
            "\(Format.megabytes(Double(result.bytes))) in \(Format.number(result.seconds)) s, CPU "
                + "\(Format.number(result.cpuSeconds)) s, peak +\(Format.megabytes(Double(result.peakOverBaseline)))"
        ]
        if !result.same.isEmpty {
            parts.append(
                "same \(milliseconds(result.same)), other \(milliseconds(result.other)), "
                    + "server sent \(result.serverSent.map { Format.megabytes(Double($0)) } ?? "?") in "
                    + "\(result.serverSeconds.map(Format.number) ?? "?") s, probes done after \(Format.number(result.window)) s"
            )
        }
        if let failure = result.failure { parts.append("unexpected: \(failure)") }
        return parts.joined(separator: "; ")
    }

    /// "median (max) ms" of `values`.
    private static func milliseconds(_ values: [Double]) -> String {
        guard let median = Statistics.median(values), let worst = values.max() else { return "?" }
        return "\(Format.number(median * 1000)) ms (\(Format.number(worst * 1000)) ms)"
    }

    /// "median (lowest–highest)" of `values` formatted with `format`.
    private static func spread(_ values: [Double], _ format: (Double) -> String) -> String {
        guard let median = Statistics.median(values), let low = values.min(), let high = values.max() else {
            return "?"
        }
        return "\(format(median)) (\(format(low))–\(format(high)))"
    }

    /// The report: throughput, then the small GETs' latency while a stream runs.
    static func markdown(_ cases: [Case], rounds: Int, probes: Int) -> [String] {
        var lines = [
            "Streams (1 GiB; \(rounds) fresh processes per client and case; medians, lowest–highest in brackets):", "",
            "| Case | Client | MiB/s | CPU s per GiB | Peak RSS over baseline | Unexpected |",
            "|---|---|---:|---:|---:|---|",
        ]
        for measured in cases where measured.probes == 0 {
            for side in [Side.fetch, .raw] {
                let results = measured.results[side] ?? []
                let gib = { (result: StreamCase.Result) in Double(result.bytes) / Double(1 << 30) }
                lines.append(
                    "| \(measured.name) | \(side == .raw ? "URLSession, bare data delegate" : side.title) | "
                        + spread(
                            results.map { Double($0.bytes) / Double(1 << 20) / max($0.seconds, 1e-9) },
                            Format.number) + " | "
                        + spread(results.map { $0.cpuSeconds / max(gib($0), 1e-9) }, Format.number) + " | "
                        + spread(results.map { Double($0.peakOverBaseline) }, Format.megabytes) + " | "
                        + failures(results) + " |")
            }
        }
        lines += [
            "",
            "Small GETs while the stream runs (\(probes) on the streaming client and \(probes) on another, "
                + "one after the other; per process the median, then the median and the range of those; "
                + "worst single GET last):",
            "",
            "| Case | Client | Same client, ms | Other client, ms | Worst GET, ms | Stream ran throughout | Peak RSS over baseline | Unexpected |",
            "|---|---|---:|---:|---:|---:|---:|---|",
        ]
        for measured in cases where measured.probes > 0 {
            for side in [Side.fetch, .raw] {
                let results = measured.results[side] ?? []
                let worst = results.flatMap { $0.same + $0.other }.max().map { Format.number($0 * 1000) } ?? "?"
                let ms = { (value: Double) in Format.number(value * 1000) }
                lines.append(
                    "| \(measured.name) | \(side == .raw ? "URLSession, bare data delegate" : side.title) | "
                        + spread(results.compactMap { Statistics.median($0.same) }, ms) + " | "
                        + spread(results.compactMap { Statistics.median($0.other) }, ms) + " | \(worst) | "
                        + "\(results.filter(\.streamedThroughout).count) of \(results.count) | "
                        + spread(results.map { Double($0.peakOverBaseline) }, Format.megabytes) + " | "
                        + failures(results) + " |")
            }
        }
        return lines
    }

    private static func failures(_ results: [StreamCase.Result]) -> String {
        let failures = results.compactMap(\.failure)
        return failures.isEmpty ? "" : "\(failures.count): \(failures[0].prefix(80))"
    }
}
