import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// A fast 1 GiB response that the caller ends early, in a process of its own: how much
/// memory the process gains, how much the server still manages to send after the end,
/// and how long a small request waits meanwhile, on another client and on the same one.
enum EndedTransfer {
    /// How the call ends.
    enum End: String, Codable, Sendable, CaseIterable {
        /// The handle is cancelled `delay` after the call started.
        case cancel
        /// The body passes a 1 MiB limit (Fetch only: raw URLSession has no limit).
        case tooLarge = "too-large"
        /// The call's deadline, `delay`, passes (Fetch only).
        case deadline
        /// A download to a file, cancelled `delay` after it started.
        case downloadCancel = "download-cancel"

        /// Whether raw URLSession can end a call this way.
        var hasRawEquivalent: Bool { self == .cancel || self == .downloadCancel }
    }

    /// How fast the server sends.
    enum Rate: String, Codable, Sendable, CaseIterable {
        /// As fast as loopback goes.
        case full
        /// 200 MiB/s (nginx `limit_rate`).
        case limited = "200"

        /// The server path of the 1 GiB file at this rate.
        var path: String { self == .full ? "/full/1g.bin" : "/rated/1g.bin" }
        var title: String { self == .full ? "full speed" : "200 MiB/s" }
    }

    /// What one ended call measured.
    struct Result: Codable, Sendable {
        var baselineBytes = 0
        var peakBytes = 0
        /// Seconds from the start of the call to its completion.
        var endedAfter = 0.0
        /// Bytes the server had sent when the connection closed (nginx `$bytes_sent`).
        var serverSent: Int?
        /// Seconds a small GET on another client took, started as the call completed.
        var otherLatency: Double?
        /// Seconds a small GET on a third client took, sent the moment the caller ended the
        /// call (as it cancels), while the transfer drains; `nil` for the ends Fetch
        /// makes itself (body limit, deadline), which complete at the end.
        var atEndLatency: Double?
        /// Seconds a small GET on the same client took, sent at the same moment as
        /// `atEndLatency`'s; `nil` for the ends Fetch makes itself.
        var sameAtEndLatency: Double?
        /// Seconds a small GET on the same client took, started after the other one.
        var sameLatency: Double?
        /// Bytes left in the download's file or partial file after the end (downloads only).
        var bytesOnDisk: Int?
        var failure: String?

        var peakOverBaseline: Int { max(0, peakBytes - baselineBytes) }
    }

    /// How long after the start a call is cancelled, or its deadline passes.
    static let delay = 0.05

    /// Runs one ended call through `side` and measures it.
    static func run(end: End, rate: Rate, side: Side, server: Server, transferLog: URL) -> Result {
        let tag = UUID().uuidString
        let url = server.url(rate.path + "?tag=\(tag)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-bench-ended-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let client: any EndingClient = side == .fetch ? FetchEnding(folder: folder) : RawEnding(folder: folder)
        let other: any EndingClient = side == .fetch ? FetchEnding(folder: folder) : RawEnding(folder: folder)
        let third: any EndingClient = side == .fetch ? FetchEnding(folder: folder) : RawEnding(folder: folder)
        // Warm the clients up, so libraries and connections are in place.
        for warming in [client, other, third] { _ = warming.small(server.url("/small.txt")) }
        let atEnd = Probe(client: third, url: server.url("/small.txt"))
        let sameAtEnd = Probe(client: client, url: server.url("/small.txt"))
        var result = Result()
        result.baselineBytes = ProcessStats.residentBytes()
        _ = ProcessStats.resetPeak()
        let start = ContinuousClock.now
        result.failure = client.end(url, how: end) {
            atEnd.start()
            sameAtEnd.start()
        }
        result.endedAfter = (ContinuousClock.now - start).seconds
        result.otherLatency = other.small(server.url("/small.txt"))
        result.atEndLatency = end.hasRawEquivalent ? atEnd.wait() : nil
        result.sameAtEndLatency = end.hasRawEquivalent ? sameAtEnd.wait() : nil
        result.sameLatency = client.small(server.url("/small.txt"))
        result.serverSent = sentBytes(tag: tag, log: transferLog)
        result.peakBytes = ProcessStats.peakBytes()
        result.bytesOnDisk = end == .downloadCancel ? bytes(in: folder) : nil
        return result
    }

    /// Waits up to 20 s for nginx to log the transfer tagged `tag`, and returns its `$bytes_sent`.
    static func sentBytes(tag: String, log: URL) -> Int? {
        logged(tag: tag, log: log).flatMap { Int($0[1]) }
    }

    /// Waits up to 20 s for nginx to log the transfer tagged `tag`, and returns the fields
    /// of its line: tag, `$bytes_sent`, `$status`, `$request_time`.
    static func logged(tag: String, log: URL) -> [Substring]? {
        for _ in 0..<200 {
            if let text = try? String(contentsOf: log, encoding: .utf8) {
                for line in text.split(separator: "\n") {
                    let fields = line.split(separator: " ")
                    if fields.count >= 2, fields[0] == tag { return fields }
                }
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return nil
    }

    /// Bytes in the files left in `folder`, hidden partial files included.
    private static func bytes(in folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.reduce(0) { total, name in
            let path = folder.appendingPathComponent(name).path
            return total + (((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0)
        }
    }
}

/// A client that can end a call early and time a small request.
protocol EndingClient: Sendable {
    /// Starts a call of `url`, ends it as `how` says, calls `atEnd` as it cancels it, and
    /// waits for its completion.
    /// - Returns: `nil` when it ended with the expected error, otherwise what happened.
    func end(_ url: URL, how: EndedTransfer.End, atEnd: @escaping @Sendable () -> Void) -> String?
    /// Sends a GET of `url` and hands `done` its outcome.
    func get(_ url: URL, done: @escaping @Sendable (Result<Void, any Error>) -> Void)
}

extension EndingClient {
    /// The seconds a GET of `url` takes, or `nil` when it fails.
    func small(_ url: URL) -> Double? {
        timed { done in get(url, done: done) }
    }
}

/// A small GET on `client`, sent from a thread of its own the moment `start` is called, so
/// that the caller's cancel goes on at once (with raw URLSession, `cancel()` waits for the
/// work queue).
final class Probe: Sendable {
    private let client: any EndingClient
    private let url: URL
    // Set once: the GET's seconds (or `nil` on failure).
    private let seconds = Locked<Double??>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(client: any EndingClient, url: URL) {
        self.client = client
        self.url = url
    }

    /// Sends the GET; called once.
    func start() {
        let began = ContinuousClock.now
        let (client, url, seconds, done) = (self.client, self.url, self.seconds, self.done)
        Thread.detachNewThread {
            client.get(url) { outcome in
                let elapsed: Double? = if case .success = outcome { (ContinuousClock.now - began).seconds } else { nil }
                seconds.set(.some(elapsed))
                done.signal()
            }
        }
    }

    /// The GET's seconds, once it has completed (at most 60 s), or `nil` when it failed.
    func wait() -> Double? {
        if done.wait(timeout: .now() + 60) == .timedOut { return nil }
        return seconds.get() ?? nil
    }
}

/// Fetch's `Session`, with a 1 MiB body limit for `tooLarge`.
struct FetchEnding: EndingClient {
    let session = Session(configuration: sharedConfiguration(maximumConnections: 4))
    let folder: URL

    func end(_ url: URL, how: EndedTransfer.End, atEnd: @escaping @Sendable () -> Void) -> String? {
        var request = BasicRequest(url: url)
        // Large enough for the whole body, as raw URLSession has no limit; `tooLarge` lowers it.
        request.options.maximumBodySize = 2 << 30
        let expected: FetchError.Code
        switch how {
        case .tooLarge:
            request.options.maximumBodySize = 1 << 20
            expected = .bodyTooLarge
        case .deadline:
            request.options.deadline = .milliseconds(Int(EndedTransfer.delay * 1000))
            expected = .deadlineExceeded
        case .cancel, .downloadCancel:
            expected = .cancelled
        }
        let outcome = waitFor { (done: @escaping @Sendable (Swift.Result<Void, any Error>) -> Void) in
            let handle: any Cancellable
            if how == .downloadCancel {
                handle = session.download(request, to: .temporaryFile(in: folder), progress: nil) {
                    done($0.map { _ in })
                }
            } else {
                handle = session.perform(request) { done($0.map { _ in }) }
            }
            if how == .cancel || how == .downloadCancel {
                DispatchQueue.global().asyncAfter(deadline: .now() + EndedTransfer.delay) {
                    atEnd()
                    handle.cancel()
                }
            }
        }
        return surprise(in: outcome) { ($0 as? FetchError)?.code == expected }
    }

    func get(_ url: URL, done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        session.perform(BasicRequest(url: url)) { done($0.map { _ in }) }
    }
}

/// Raw URLSession configured as `Session` configures its own, with completion-handler tasks.
struct RawEnding: EndingClient {
    let session = URLSession(configuration: .mirroring(sharedConfiguration(maximumConnections: 4)))
    let folder: URL

    func end(_ url: URL, how: EndedTransfer.End, atEnd: @escaping @Sendable () -> Void) -> String? {
        guard how.hasRawEquivalent else { return "raw URLSession cannot end a call so" }
        let outcome = waitFor { (done: @escaping @Sendable (Swift.Result<Void, any Error>) -> Void) in
            let task: URLSessionTask
            if how == .downloadCancel {
                task = session.downloadTask(with: url) { file, _, error in
                    if let file { try? FileManager.default.removeItem(at: file) }
                    done(error.map { .failure($0) } ?? .success(()))
                }
            } else {
                task = session.dataTask(with: url) { _, _, error in done(error.map { .failure($0) } ?? .success(())) }
            }
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + EndedTransfer.delay) {
                atEnd()
                task.cancel()
            }
        }
        return surprise(in: outcome) { ($0 as? URLError)?.code == .cancelled }
    }

    func get(_ url: URL, done: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        session.dataTask(with: url) { _, _, error in done(error.map { .failure($0) } ?? .success(())) }.resume()
    }
}

/// `nil` when `outcome` is the error `isExpected` recognizes, otherwise what happened instead.
private func surprise(in outcome: Result<Void, any Error>, isExpected: (any Error) -> Bool) -> String? {
    switch outcome {
    case .failure(let error) where isExpected(error): return nil
    case .failure(let error): return "\(error)"
    case .success: return "the call did not end early"
    }
}

/// The seconds the work `start` starts takes to succeed, or `nil` when it fails.
private func timed(_ start: (@escaping @Sendable (Result<Void, any Error>) -> Void) -> Void) -> Double? {
    let began = ContinuousClock.now
    guard case .success = waitFor(start) else { return nil }
    return (ContinuousClock.now - began).seconds
}

/// Starts work with a completion and blocks this (main) thread until it is called, at most 60 s.
private func waitFor(
    _ start: (@escaping @Sendable (Result<Void, any Error>) -> Void) -> Void
) -> Result<Void, any Error> {
    let done = DispatchSemaphore(value: 0)
    let box = Locked<Result<Void, any Error>>(.failure(CocoaError(.userCancelled)))
    start { result in
        box.set(result)
        done.signal()
    }
    if done.wait(timeout: .now() + 60) == .timedOut { return .failure(URLError(.timedOut)) }
    return box.get()
}

/// A value handed between threads under a lock.
private final class Locked<Value: Sendable>: @unchecked Sendable {
    // `lock` guards `value`.
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value { lock.withLock { value } }
}
