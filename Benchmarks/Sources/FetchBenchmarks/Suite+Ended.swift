import Foundation

extension Suite {
    /// One way of ending a fast transfer, at one rate, and its results per client.
    struct EndedCase {
        var end: EndedTransfer.End
        var rate: EndedTransfer.Rate
        var results: [Side: [EndedTransfer.Result]] = [:]

        var name: String { "1 GiB at \(rate.title), \(end.rawValue)" }
    }

    /// Every ending at every rate, each in fresh processes, Fetch and raw URLSession
    /// alternating (raw only for the endings it has).
    func endedCases() throws -> [EndedCase] {
        guard let transferLog = settings.transferLog else {
            log("ended transfers skipped: no --transfer-log (run.sh passes nginx's)")
            return []
        }
        var cases: [EndedCase] = []
        for rate in EndedTransfer.Rate.allCases {
            for end in EndedTransfer.End.allCases {
                var measured = EndedCase(end: end, rate: rate)
                for round in 0..<settings.memoryRounds {
                    let sides: [Side] =
                        end.hasRawEquivalent ? (round.isMultiple(of: 2) ? [.fetch, .raw] : [.raw, .fetch]) : [.fetch]
                    for side in sides {
                        let result = try Child.run(
                            [
                                "ended", "--port", "\(server.port)", "--side", side.rawValue, "--end", end.rawValue,
                                "--rate", rate.rawValue, "--transfer-log", transferLog.path,
                            ], as: EndedTransfer.Result.self)
                        log("\(measured.name) round \(round + 1) \(side.title): " + Self.describe(result))
                        measured.results[side, default: []].append(result)
                    }
                }
                cases.append(measured)
            }
        }
        return cases
    }

    private static func describe(_ result: EndedTransfer.Result) -> String {
        if let failure = result.failure { return "unexpected: \(failure)" }
        return "ended after \(Format.number(result.endedAfter * 1000)) ms, peak +"
            + "\(Format.megabytes(Double(result.peakOverBaseline))), server sent "
            + "\(result.serverSent.map { Format.megabytes(Double($0)) } ?? "?"), small request "
            + "\(result.otherLatency.map { Format.number($0 * 1000) } ?? "?") ms (other), "
            + "\(result.sameLatency.map { Format.number($0 * 1000) } ?? "?") ms (same), "
            + "\(result.atEndLatency.map { Format.number($0 * 1000) } ?? "?") ms (sent at the end), "
            + "\(result.sameAtEndLatency.map { Format.number($0 * 1000) } ?? "?") ms (same, sent at the end)"
    }
}

extension Report {
    /// The ended-transfer table: medians over rounds, the worst in brackets.
    func endedLines() -> [String] {
        guard !ended.isEmpty else { return [] }
        var lines = [
            "", "Ended transfers (1 GiB, ended early; medians, worst in brackets):", "",
            "| Case | Client | Peak RSS over baseline | Server sent in all | Call completed after | Small request sent at the end, other client | Small request sent at the end, same client | Small request after the completion, other client | Call + small request, other client | Small request, same client | On disk after | Unexpected |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for measured in ended {
            for side in [Side.fetch, .raw] {
                guard let results = measured.results[side], !results.isEmpty else { continue }
                func summary(_ value: (EndedTransfer.Result) -> Double?, _ format: (Double) -> String) -> String {
                    let values = results.compactMap(value)
                    guard let median = Statistics.median(values), let worst = values.max() else { return "?" }
                    return "\(format(median)) (\(format(worst)))"
                }
                let megabytes: (Double) -> String = { Format.megabytes($0) }
                let milliseconds: (Double) -> String = { Format.number($0 * 1000) + " ms" }
                let failures = results.compactMap(\.failure)
                lines.append(
                    "| \(measured.name) | \(side.title) | "
                        + summary({ Double($0.peakOverBaseline) }, megabytes) + " | "
                        + summary({ $0.serverSent.map(Double.init) }, megabytes) + " | "
                        + summary(\.endedAfter, milliseconds) + " | "
                        + (measured.end.hasRawEquivalent ? summary(\.atEndLatency, milliseconds) : "—") + " | "
                        + (measured.end.hasRawEquivalent ? summary(\.sameAtEndLatency, milliseconds) : "—") + " | "
                        + summary(\.otherLatency, milliseconds) + " | "
                        + summary({ result in result.otherLatency.map { result.endedAfter + $0 } }, milliseconds)
                        + " | "
                        + summary(\.sameLatency, milliseconds) + " | "
                        + (measured.end == .downloadCancel
                            ? summary({ $0.bytesOnDisk.map(Double.init) }, megabytes) : "—")
                        + " | " + (failures.isEmpty ? "" : "\(failures.count): \(failures[0].prefix(80))") + " |")
            }
        }
        return lines
    }
}
