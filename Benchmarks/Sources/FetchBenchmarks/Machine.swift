import Foundation

/// The machine and settings a report was measured with.
enum Machine {
    /// The 1-minute load average, from /proc/loadavg.
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// Lines for the top of the report: date, cores, CPU model, load, notes from the caller, settings.
    static func description(settings: Suite.Settings, notes: [String], load: (Double?, Double?)) -> [String] {
        let date = ISO8601DateFormatter().string(from: Date())
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var lines = [
            "Measured \(date) on \(cores) cores (\(cpuModel() ?? "unknown CPU")), "
                + "\(Format.number(Double(ProcessInfo.processInfo.physicalMemory) / 1e9)) GB of memory, release build."
        ]
        lines += notes
        if let before = load.0, let after = load.1 {
            lines.append(
                "Load average (1 min) on the machine: \(Format.number(before)) at the start, "
                    + "\(Format.number(after)) at the end (other work on the machine makes the numbers noisier).")
        }
        lines.append(
            "Each throughput case: \(settings.rounds) rounds; in each round each client runs in a fresh "
                + "process (warm-up, then the measured requests), the two in alternating order. "
                + "Columns are medians over rounds; Fetch/raw is the median of the per-round ratios "
                + "(lowest–highest in brackets). Connections: accepted by the server per round, warm-up included. "
                + "Memory cases: \(settings.memoryRounds) fresh processes per client.")
        return lines
    }

    private static func cpuModel() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
    }
}
