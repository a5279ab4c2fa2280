import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// One streamed 1 GiB body in a process of its own, read at full speed or not read at all
/// after its first chunk, through Fetch's `Session.stream` or raw URLSession with a bare
/// data delegate: how fast it arrives and at what CPU cost, and how long small GETs on the
/// same client and on another one take meanwhile.
enum StreamCase {
    /// What the reader does.
    enum Reader: String, Codable, Sendable, CaseIterable {
        /// Takes every chunk as it comes.
        case fast
        /// Takes the first chunk, then nothing until the probes are done.
        case stopped
    }

    /// What one process measured.
    struct Result: Codable, Sendable {
        /// Body bytes the client took from the network (Fetch: handed to the reader or kept
        /// for it; raw: handed to the delegate).
        var bytes = 0
        /// Seconds from the start of the stream to its end (throughput runs only).
        var seconds = 0.0
        /// CPU seconds (user + system) of the process over the same span.
        var cpuSeconds = 0.0
        var baselineBytes = 0
        var peakBytes = 0
        /// Seconds each small GET took, on the streaming client and on another one.
        var same: [Double] = []
        var other: [Double] = []
        /// Seconds from the start of the stream to the last probe's completion.
        var window = 0.0
        /// What nginx logged for the stream: bytes sent, and seconds from its first byte
        /// read to its last byte written.
        var serverSent: Int?
        var serverSeconds: Double?

        /// Whether the server was still sending when the last probe completed.
        var streamedThroughout: Bool { serverSeconds.map { $0 >= window } ?? false }
        var failure: String?

        var peakOverBaseline: Int { max(0, peakBytes - baselineBytes) }
    }

    /// Runs one stream through `side` and measures it; with `probes` 0 it waits for the end
    /// and times the transfer, otherwise it sends `probes` small GETs on each client while
    /// the stream runs, then cancels it.
    static func run(
        side: Side, reader: Reader, rate: EndedTransfer.Rate, probes: Int, server: Server, transferLog: URL
    ) -> Result {
        let small = server.url("/small.txt")
        let client: any StreamingClient = side == .fetch ? FetchStreaming() : RawStreaming()
        let other: any EndingClient =
            side == .fetch
            ? FetchEnding(folder: URL(fileURLWithPath: "/")) : RawEnding(folder: URL(fileURLWithPath: "/"))
        for _ in 0..<3 {
            _ = client.small(small)
            _ = other.small(small)
        }
        var result = Result()
        result.baselineBytes = ProcessStats.residentBytes()
        _ = ProcessStats.resetPeak()
        let cpuBefore = ProcessStats.cpuSeconds()
        let start = ContinuousClock.now
        let tag = UUID().uuidString
        let stream = client.start(server.url(rate.path + "?tag=\(tag)"), reader: reader)
        if probes == 0 {
            result.failure = stream.waitForEnd()
            result.seconds = (ContinuousClock.now - start).seconds
        } else {
            stream.waitForFirstBytes()
            for _ in 0..<probes {
                if let seconds = client.small(small) { result.same.append(seconds) }
                if let seconds = other.small(small) { result.other.append(seconds) }
            }
            result.window = (ContinuousClock.now - start).seconds
            stream.cancel()
            _ = stream.waitForEnd()
            if result.same.count < probes || result.other.count < probes { result.failure = "a small GET failed" }
        }
        result.cpuSeconds = ProcessStats.cpuSeconds() - cpuBefore
        result.bytes = stream.bytes
        result.peakBytes = ProcessStats.peakBytes()
        if let logged = EndedTransfer.logged(tag: tag, log: transferLog) {
            result.serverSent = Int(logged[1])
            result.serverSeconds = logged.count > 3 ? Double(logged[3]) : nil
        }
        return result
    }
}

/// A client that streams a body and sends small GETs on the same session.
protocol StreamingClient: EndingClient {
    /// Starts streaming `url` with a reader that does what `reader` says.
    func start(_ url: URL, reader: StreamCase.Reader) -> RunningStream
}

/// A stream under way: its byte count, its end, and a gate that lets a stopped reader go.
final class RunningStream: @unchecked Sendable {
    // `lock` guards `count`, `ended`, `failure` and `stop`.
    private let lock = NSLock()
    private var count = 0
    private var ended = false
    private var failure: String?
    private var stop: (@Sendable () -> Void)?
    private let first = DispatchSemaphore(value: 0)
    private let end = DispatchSemaphore(value: 0)

    var bytes: Int { lock.withLock { count } }
    var hasEnded: Bool { lock.withLock { ended } }

    func onStop(_ action: @escaping @Sendable () -> Void) { lock.withLock { stop = action } }

    func took(_ bytes: Int) {
        let isFirst = lock.withLock {
            count += bytes
            return count == bytes
        }
        if isFirst { first.signal() }
    }

    func finished(_ failure: String?) {
        let isFirst = lock.withLock {
            defer { ended = true }
            self.failure = failure
            return !ended
        }
        if isFirst {
            first.signal()
            end.signal()
        }
    }

    func cancel() { lock.withLock { stop }?() }

    func waitForFirstBytes() { _ = first.wait(timeout: .now() + 60) }

    /// Waits for the end (at most 120 s). - Returns: why it failed, `nil` when it did not.
    func waitForEnd() -> String? {
        if end.wait(timeout: .now() + 120) == .timedOut { return "the stream did not end" }
        return lock.withLock { failure }
    }
}

/// Fetch's `Session.stream`, read by a loop in a `Task`.
struct FetchStreaming: StreamingClient {
    let fetch = FetchEnding(folder: URL(fileURLWithPath: "/"))

    func start(_ url: URL, reader: StreamCase.Reader) -> RunningStream {
        let running = RunningStream()
        let session = fetch.session
        let task = Task {
            do {
                let stream = try await session.stream(BasicRequest(url: url))
                for try await chunk in stream.chunks {
                    running.took(chunk.count)
                    if reader == .stopped {
                        // Not reading: wait until cancelled, which ends the loop.
                        while !Task.isCancelled { try await Task.sleep(for: .seconds(60)) }
                    }
                }
                running.finished(nil)
            } catch {
                running.finished(
                    (error as? FetchError)?.code == .cancelled || error is CancellationError ? nil : "\(error)")
            }
        }
        running.onStop { task.cancel() }
        return running
    }

    func end(_ url: URL, how: EndedTransfer.End, atEnd: @escaping @Sendable () -> Void) -> String? {
        fetch.end(url, how: how, atEnd: atEnd)
    }

    func get(_ url: URL, done: @escaping @Sendable (Result<Void, any Error>) -> Void) { fetch.get(url, done: done) }
}

/// URLSession with a bare data delegate: a fast reader counts each piece; a stopped reader
/// keeps every piece in memory, as nothing else can hold what arrives.
final class RawStreaming: NSObject, StreamingClient, URLSessionDataDelegate, @unchecked Sendable {
    // `lock` guards `running`, `streamTask`, `keeps` and `kept`; `session` is set once in `init`.
    private let lock = NSLock()
    private var running: RunningStream?
    private var streamTask: Int?
    private var keeps = false
    private var kept: [Data] = []
    private var session: URLSession!

    override init() {
        super.init()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(
            configuration: .mirroring(sharedConfiguration(maximumConnections: 4)), delegate: self,
            delegateQueue: queue)
    }

    func start(_ url: URL, reader: StreamCase.Reader) -> RunningStream {
        let stream = RunningStream()
        let task = session.dataTask(with: url)
        lock.withLock {
            running = stream
            streamTask = task.taskIdentifier
            keeps = reader == .stopped
        }
        // `cancel()` waits for URLSession's work queue: from a thread of its own.
        stream.onStop { Thread.detachNewThread { task.cancel() } }
        task.resume()
        return stream
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stream: RunningStream? = lock.withLock {
            guard dataTask.taskIdentifier == streamTask else { return nil }
            if keeps { kept.append(data) }
            return running
        }
        stream?.took(data.count)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let stream: RunningStream? = lock.withLock {
            guard task.taskIdentifier == streamTask else { return nil }
            kept = []
            return running
        }
        let failure = error.flatMap { ($0 as? URLError)?.code == .cancelled ? nil : "\($0)" }
        stream?.finished(failure)
    }

    func end(_ url: URL, how: EndedTransfer.End, atEnd: @escaping @Sendable () -> Void) -> String? {
        "not measured"
    }

    func get(_ url: URL, done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        session.dataTask(with: url) { _, _, error in done(error.map { .failure($0) } ?? .success(())) }.resume()
    }
}
