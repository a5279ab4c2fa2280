import Foundation
import Fetch

/// A slow reader of a fast stream: `fetch-bench stream` reads nginx's 1 GiB file (served
/// as fast as loopback allows) through `Session.stream` at `rate` MiB/s for `seconds`, then
/// leaves the loop, and reports the peak resident memory over the process's baseline and
/// how far nginx got meanwhile (its `$bytes_sent`). Backpressure holds when the peak stays
/// near the stream's buffer (2 MiB by default) and nginx sends little more than was read.
enum StreamRound {
    struct Result: Sendable {
        var baselineBytes = 0
        var peakBytes = 0
        var readBytes = 0
        var serverSent: Int?
        var seconds = 0.0
        var failure: String?
    }

    static func run(server: Server, transferLog: URL, seconds: Double, rate: Double, bufferSize: Int) -> Result {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.result = await measure(
                server: server, seconds: seconds, rate: rate, bufferSize: bufferSize, tag: box.tag)
            done.signal()
        }
        done.wait()
        var result = box.result
        result.serverSent = EndedTransfer.sentBytes(tag: box.tag, log: transferLog)
        return result
    }

    private static func measure(server: Server, seconds: Double, rate: Double, bufferSize: Int, tag: String) async
        -> Result
    {
        var result = Result()
        let session = Session(configuration: sharedConfiguration(maximumConnections: 6))
        do {
            // Warm up the same path on a small body, so libraries and buffers are in place.
            for try await _ in try await session.stream(BasicRequest(url: server.url("/small.txt"))).chunks {}
            result.baselineBytes = ProcessStats.residentBytes()
            ProcessStats.resetPeak()
            let clock = ContinuousClock()
            let stream = try await session.stream(
                BasicRequest(url: server.url("/full/1g.bin?tag=\(tag)")),
                bufferSize: bufferSize)
            let start = clock.now
            let bytesPerSecond = rate * Double(1 << 20)
            for try await chunk in stream.chunks {
                result.readBytes += chunk.count
                let due = start + .seconds(Double(result.readBytes) / bytesPerSecond)
                if due > clock.now { try await Task.sleep(until: due, clock: clock) }
                if clock.now - start > .seconds(seconds) { break }
            }
            let elapsed = clock.now - start
            result.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            result.peakBytes = ProcessStats.peakBytes()
        } catch {
            result.failure = "\(error)"
        }
        return result
    }

    /// Markdown lines for the report.
    static func markdown(_ result: Result, rate: Double, bufferSize: Int) -> [String] {
        let mib = { (bytes: Int) in String(format: "%.1f MiB", Double(bytes) / Double(1 << 20)) }
        if let failure = result.failure { return ["stream: failed: \(failure)"] }
        return [
            "| reader | buffer | read | in | peak RSS over baseline | nginx sent |",
            "|---|---|---|---|---|---|",
            "| \(rate) MiB/s | \(mib(bufferSize)) | \(mib(result.readBytes)) | \(String(format: "%.1f s", result.seconds)) "
                + "| \(mib(result.peakBytes - result.baselineBytes)) | \(result.serverSent.map(mib) ?? "?") |",
        ]
    }

    private final class Box: @unchecked Sendable {
        // Written by the task before it signals, read after the wait: the semaphore orders them.
        var result = Result()
        let tag = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}
