import Foundation
import Testing

/// The process's resident memory, read from `/proc/self/status` (Linux).
enum PeakMemory {
    /// Resident set size now, in bytes; `nil` where `/proc` is missing.
    static var resident: Int? { read("VmRSS") }

    /// The highest resident set size since the last ``reset()``, in bytes.
    static var peak: Int? { read("VmHWM") }

    /// Starts a new peak from the current resident size (writes 5 to `/proc/self/clear_refs`).
    static func reset() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        defer { try? handle.close() }
        try? handle.write(contentsOf: Data("5".utf8))
    }

    /// Runs `body` and reports the resident size before it and the peak during it, in MB.
    /// - Throws: what `body` throws, or a test failure where `/proc` tells no sizes.
    static func measure<T>(_ body: () async throws -> T) async throws -> (value: T, baseline: Double, peak: Double) {
        reset()
        let baseline = try #require(resident, "no VmRSS in /proc/self/status")
        let value = try await body()
        let highest = try #require(peak, "no VmHWM in /proc/self/status")
        return (value, Double(baseline) / 1_048_576, Double(highest) / 1_048_576)
    }

    private static func read(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return nil
    }
}
