import Foundation
import Testing

/// The resident memory of this test process, read from `/proc/self/status` (Linux only).
enum ProcessMemory {
    /// The resident set size now, in bytes; `nil` where `/proc` is not available.
    static var resident: Int? { field("VmRSS") }

    /// The highest resident set size since the process started or since ``resetPeak()``, in bytes.
    static var peak: Int? { field("VmHWM") }

    /// Resets the peak to the current resident size (writes 5 to `/proc/self/clear_refs`).
    /// - Returns: whether the kernel accepted it.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// Runs `body` and reports the resident size before it and the peak during it, in MB.
    /// - Throws: what `body` throws, or a test failure where `/proc` tells no sizes.
    static func measure<T>(_ body: () async throws -> T) async throws -> (value: T, baseline: Double, peak: Double) {
        resetPeak()
        let baseline = try #require(resident, "no VmRSS in /proc/self/status")
        let value = try await body()
        let highest = try #require(peak, "no VmHWM in /proc/self/status")
        return (value, Double(baseline) / 1_048_576, Double(highest) / 1_048_576)
    }

    /// Whether this process runs under the thread sanitizer, whose shadow memory inflates
    /// every resident-size figure.
    static var underThreadSanitizer: Bool {
        dlsym(nil, "__tsan_init") != nil
    }

    private static func field(_ name: String) -> Int? {
        guard let status = procFile("/proc/self/status") else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
                .flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}

/// The whole text of a file under /proc, read to the end (they report a size of 0); `nil` when it cannot be opened.
func procFile(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
}
