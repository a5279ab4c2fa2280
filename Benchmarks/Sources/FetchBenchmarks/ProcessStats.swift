import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU time and memory of the running process, read from getrusage and /proc.
enum ProcessStats {
    /// User plus system CPU time used so far by this process, in seconds.
    static func cpuSeconds() -> Double { cpuSeconds(of: RUSAGE_SELF.rawValue) }

    /// User plus system CPU time used so far by this process's children that have ended and
    /// been waited for, in seconds.
    static func childrenCPUSeconds() -> Double { cpuSeconds(of: RUSAGE_CHILDREN.rawValue) }

    private static func cpuSeconds(of who: Int32) -> Double {
        var usage = rusage()
        getrusage(who, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The resident set size now, in bytes (`VmRSS`).
    static func residentBytes() -> Int { statusField("VmRSS") ?? 0 }

    /// The highest resident set size since the start or the last ``resetPeak()``, in bytes
    /// (`VmHWM`; falls back to getrusage's lifetime maximum).
    static func peakBytes() -> Int {
        if let peak = statusField("VmHWM") { return peak }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int(usage.ru_maxrss) * 1024
    }

    /// Resets the peak resident set size to the current one (Linux 4.0 and later).
    /// - Returns: whether the kernel accepted the reset.
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

    /// A `kB` field of /proc/self/status, in bytes.
    private static func statusField(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// User plus system CPU time used so far by another process, in seconds, from
    /// /proc/PID/stat; `nil` when the process is gone.
    static func cpuSeconds(ofProcess pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name start at field 3; utime and stime are fields 14 and 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The child processes of `pid`, from /proc.
    static func children(of pid: Int32) -> [Int32] {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else {
            return []
        }
        return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
