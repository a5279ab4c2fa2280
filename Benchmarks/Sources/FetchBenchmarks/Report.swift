import Foundation

/// Everything one run measured, rendered as Markdown tables with the targets.
struct Report {
    let settings: Suite.Settings
    var throughput: [Suite.ThroughputCase] = []
    var memory: [Suite.MemoryCase] = []
    var layers: LayerOverhead.Result?
    var cache: CacheBench.Result?
    var ended: [Suite.EndedCase] = []
    /// Lines describing the machine and the software, set by the caller.
    var environment: [String] = []

    private typealias Row = [String]

    /// The report as Markdown.
    var markdown: String {
        var lines = environment
        if !throughput.isEmpty || !memory.isEmpty {
            lines += [
                "", "| Case | Metric | Fetch | URLSession | Fetch/raw | Target | Result |",
                "|---|---|---:|---:|---:|---|---|",
            ]
            lines += (throughput.flatMap(throughputRows) + memory.flatMap(memoryRows)).map(Self.line)
        }
        lines += endedLines()
        if let layers { lines += ["", "Layer overhead over a spy (no network), ns per call:", ""] + layerRows(layers) }
        if let cache { lines += CacheBench.markdown(cache) }
        if !throughput.isEmpty {
            lines += ["", "Server check (nginx alone under wrk, same concurrency):", ""] + serverRows()
        }
        if !throughput.isEmpty { lines += ["", "Per-round Fetch/raw requests/s:", ""] + roundRatioLines() }
        let failures = throughput.flatMap { $0.results.values.joined() }.filter { $0.failures > 0 }
        if !failures.isEmpty {
            lines += [
                "",
                "**\(failures.map(\.failures).reduce(0, +)) requests failed**; first: \(failures[0].firstFailure ?? "?")",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func line(_ row: Row) -> String { "| " + row.joined(separator: " | ") + " |" }

    private func throughputRows(_ measured: Suite.ThroughputCase) -> [Row] {
        let fetch = measured.results[.fetch] ?? []
        let raw = measured.results[.raw] ?? []
        func medians(_ value: (LoadResult) -> Double) -> (Double?, Double?, Double?, String) {
            let ratios = zip(fetch, raw).map { value($0) / value($1) }
            let range = ratios.isEmpty ? "" : " (\(Format.ratio(ratios.min()))–\(Format.ratio(ratios.max())))"
            return (
                Statistics.median(fetch.map(value)), Statistics.median(raw.map(value)), Statistics.median(ratios), range
            )
        }
        let name = measured.workload.name
        var rows: [Row] = []
        let speed = medians(\.requestsPerSecond)
        let speedTarget = Target.atLeast(0.98, unit: "x")
        rows.append([
            name, "requests/s", speed.0.map(Format.number) ?? "—", speed.1.map(Format.number) ?? "—",
            Format.ratio(speed.2) + speed.3, speedTarget.text, speedTarget.verdict(speed.2),
        ])
        let cpu = medians(\.cpuMicrosecondsPerRequest)
        let cpuTarget = Target.atMost(1.05, unit: "x")
        rows.append([
            "", "CPU µs/request", cpu.0.map(Format.number) ?? "—", cpu.1.map(Format.number) ?? "—",
            Format.ratio(cpu.2) + cpu.3, cpuTarget.text, cpuTarget.verdict(cpu.2),
        ])
        let peak = medians { Double($0.peakBytes) }
        rows.append([
            "", "peak RSS", Format.megabytes(peak.0), Format.megabytes(peak.1), Format.ratio(peak.2), "—", "—",
        ])
        let fetchConnections = fetch.compactMap(\.connections).map(Double.init)
        let rawConnections = raw.compactMap(\.connections).map(Double.init)
        func connections(_ values: [Double]) -> String {
            guard let median = Statistics.median(values), let most = values.max() else { return "—" }
            return "\(Format.number(median)) (max \(Format.number(most)))"
        }
        let connectionTarget: Target = measured.workload.inFlight >= 16 ? .atMost(16, unit: "") : .none
        rows.append([
            "", "connections accepted", connections(fetchConnections), connections(rawConnections), "",
            connectionTarget.text,
            connectionTarget.verdict(fetchConnections.max()),
        ])
        return rows
    }

    private func memoryRows(_ measured: Suite.MemoryCase) -> [Row] {
        let body = Double(measured.size)
        func summary(_ side: Side) -> (value: Double?, text: String) {
            let results = measured.results[side] ?? []
            if let reason = results.first?.unavailable { return (nil, "not available: \(reason)") }
            if let failure = results.compactMap(\.failure).first { return (nil, "failed: \(failure)") }
            switch measured.destination {
            case .memory:
                let over = Statistics.median(results.map { Double($0.peakOverBaseline) })
                return (
                    over.map { $0 / body }, "\(Format.megabytes(over)) (\(Format.ratio(over.map { $0 / body })) body)"
                )
            case .file:
                let peak = Statistics.median(results.map { Double($0.peakBytes) })
                return (peak.map { $0 / 1e6 }, Format.megabytes(peak))
            }
        }
        let fetch = summary(.fetch)
        let raw = summary(.raw)
        let ratio = fetch.value.flatMap { fetchValue in raw.value.map { fetchValue / $0 } }
        switch measured.destination {
        case .memory:
            let target = Target.atMost(1.2, unit: "x body")
            return [
                [
                    measured.name, "peak RSS over baseline", fetch.text, raw.text, Format.ratio(ratio),
                    target.text, target.verdict(fetch.value),
                ]
            ]
        case .file:
            // No more than raw URLSession's own download task in the same run.
            let target = Target.atMost(1, unit: "x raw")
            return [
                [
                    measured.name, "peak RSS", fetch.text, raw.text, Format.ratio(ratio),
                    target.text, target.verdict(ratio),
                ]
            ]
        }
    }

    private func layerRows(_ layers: LayerOverhead.Result) -> [String] {
        let target = Target.atMost(2_000, unit: " ns")
        func row(_ name: String, _ bare: Double, _ stack: Double) -> String {
            let perLayer = (stack - bare) / Double(FullStack.layerCount)
            return Self.line([
                name, Format.number(bare), Format.number(stack), Format.number(stack - bare),
                Format.number(perLayer), target.text, target.verdict(perLayer),
            ])
        }
        var lines = [
            "| Case | Spy alone | Full stack (\(FullStack.layerCount) layers) | Stack over spy | Per layer | Target | Result |",
            "|---|---:|---:|---:|---:|---|---|",
            row("perform, raw response", layers.bare, layers.stack),
            row(
                "perform, decoding a \(LayerOverhead.modelSize) B JSON model", layers.bareDecoding, layers.stackDecoding
            ),
        ]
        lines += [
            "", "Each layer alone over the spy (raw response), ns per call:", "",
            "| Layer | Layer over spy | Over spy | Target | Result |", "|---|---:|---:|---|---|",
        ]
        for (layer, nanoseconds) in layers.layers {
            let over = nanoseconds - layers.bare
            let scaled = Target.atMost(2_000 * Double(layer.count), unit: " ns")
            lines.append(
                Self.line([
                    layer.name, Format.number(nanoseconds), Format.number(over),
                    scaled.text, scaled.verdict(over),
                ]))
        }
        return lines
    }

    private func serverRows() -> [String] {
        var lines = [
            "| Case | nginx under wrk, req/s | Fastest client round, req/s | Headroom | nginx worker CPU while clients ran (max) |",
            "|---|---:|---:|---:|---:|",
        ]
        for measured in throughput {
            let fastest = measured.results.values.joined().map(\.requestsPerSecond).max()
            let headroom = measured.serverCapacity.flatMap { capacity in fastest.map { capacity / $0 } }
            let busy = measured.serverBusy.max().map { String(format: "%.0f%% of a core", $0 * 100) } ?? "—"
            lines.append(
                Self.line([
                    measured.workload.name, measured.serverCapacity.map(Format.number) ?? "wrk not run",
                    fastest.map(Format.number) ?? "—", Format.ratio(headroom), busy,
                ]))
        }
        return lines
    }

    private func roundRatioLines() -> [String] {
        throughput.map { measured in
            let ratios = zip(measured.results[.fetch] ?? [], measured.results[.raw] ?? [])
                .map { Format.ratio($0.requestsPerSecond / $1.requestsPerSecond) }
            return "- \(measured.workload.name): " + ratios.joined(separator: ", ")
        }
    }
}
