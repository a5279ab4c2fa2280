import Foundation

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

    /// Whether this process runs under the thread sanitizer, whose shadow memory inflates
    /// every resident-size figure.
    static var underThreadSanitizer: Bool {
        dlsym(nil, "__tsan_init") != nil
    }

    private static func field(_ name: String) -> Int? {
        // /proc files report a size of 0, so read them to the end rather than by size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return nil }
        defer { try? handle.close() }
        let status = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let kilobytes = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
                .flatMap { Int($0) }
            return kilobytes.map { $0 * 1024 }
        }
        return nil
    }
}
