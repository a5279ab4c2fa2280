import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// One large transfer in a process of its own, measuring the peak resident memory it
/// adds over the process's baseline.
enum MemoryRound {
    /// Where the body goes.
    enum Destination: String, Codable, Sendable {
        /// The whole body in memory.
        case memory
        /// A file on disk.
        case file
    }

    /// Downloads `path` through `side` into `destination` and measures the peak.
    static func run(
        path: String, expectedSize: Int, destination: Destination, side: Side,
        server: Server
    ) -> MemoryResult {
        let configuration = sharedConfiguration(maximumConnections: 6)
        let transfer: Transfer
        switch (side, destination) {
        case (.fetch, .memory):
            let session = Session(configuration: configuration)
            transfer = { fetchIntoMemory(session, $0, $1) }
        case (.rawDelegate, .file):
            let writer = FileWritingDelegate()
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let session = URLSession(configuration: .mirroring(configuration), delegate: writer, delegateQueue: queue)
            transfer = { url, done in writer.download(url, in: session, done) }
        case (.rawDelegate, .memory), (.rawHop, _), (.rawDelegateHop, _), (.fetchStack, _), (.fetchLayers, _),
            (.rawHeaders, _):
            return MemoryResult(
                baselineBytes: 0, peakBytes: 0, receivedBytes: 0,
                unavailable: "the memory cases compare fetch, raw and raw-delegate (to a file) only")
        case (.raw, .memory):
            let session = URLSession(configuration: .mirroring(configuration))
            transfer = { rawIntoMemory(session, $0, $1) }
        case (.raw, .file):
            let session = URLSession(configuration: .mirroring(configuration))
            transfer = { rawToFile(session, $0, $1) }
        case (.fetch, .file):
            let session = Session(configuration: configuration)
            transfer = { fetchToFile(session, $0, $1) }
        }
        // Warm up the same client on a small body, so libraries and buffers are in place.
        _ = wait { transfer(server.url("/small.txt"), $0) }
        let baseline = ProcessStats.residentBytes()
        ProcessStats.resetPeak()
        let outcome = wait { transfer(server.url(path), $0) }
        let peak = ProcessStats.peakBytes()
        var failure: String?
        switch outcome {
        case .success(let size) where size != expectedSize:
            failure = "received \(size) bytes, expected \(expectedSize)"
        case .failure(let error):
            failure = "\(error)"
        default:
            break
        }
        return MemoryResult(
            baselineBytes: baseline, peakBytes: peak,
            receivedBytes: (try? outcome.get()) ?? 0, failure: failure)
    }

    /// Starts one transfer of a URL and calls back with the number of bytes received.
    private typealias Transfer = @Sendable (URL, @escaping @Sendable (Result<Int, any Error>) -> Void) -> Void

    private static func wait(_ start: (@escaping @Sendable (Result<Int, any Error>) -> Void) -> Void)
        -> Result<Int, any Error>
    {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        start { result in
            box.set(result)
            done.signal()
        }
        done.wait()
        return box.get()
    }

    private static func fetchIntoMemory(
        _ session: Session, _ url: URL,
        _ done: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) {
        session.perform(BasicRequest(url: url)) { result in
            done(result.map { $0.body.count })
        }
    }

    private static func fetchToFile(
        _ session: Session, _ url: URL,
        _ done: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) {
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("fetch-bench-download-\(getpid())-\(UUID().uuidString)")
        session.download(BasicRequest(url: url), to: .file(destination), progress: nil) { result in
            // Fetch deletes its partial file itself after a failure; the finished file is ours.
            done(result.map { file in size(ofFileAt: file.fileURL) })
        }
    }

    private static func rawIntoMemory(
        _ session: URLSession, _ url: URL,
        _ done: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) {
        session.dataTask(with: url) { data, _, error in
            if let error { return done(.failure(error)) }
            done(.success(data?.count ?? 0))
        }.resume()
    }

    private static func rawToFile(
        _ session: URLSession, _ url: URL,
        _ done: @escaping @Sendable (Result<Int, any Error>) -> Void
    ) {
        session.downloadTask(with: url) { file, _, error in
            if let error { return done(.failure(error)) }
            // URLSession on Linux leaves its temporary file behind: measure it, then remove it.
            done(.success(file.map(size(ofFileAt:)) ?? 0))
        }.resume()
    }

    /// The size of the downloaded file at `url`, which is then deleted.
    static func size(ofFileAt url: URL) -> Int {
        defer { try? FileManager.default.removeItem(at: url) }
        return ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}

/// URLSession with a data delegate that writes each piece of the body to a file as it
/// arrives, the route `Session` takes for downloads, without Fetch's bookkeeping
/// (explore only). One download at a time.
private final class FileWritingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `lock` guards `file` and `done`.
    private let lock = NSLock()
    private var file: (url: URL, handle: FileHandle)?
    private var done: (@Sendable (Result<Int, any Error>) -> Void)?

    func download(_ url: URL, in session: URLSession, _ done: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("fetch-bench-download-\(getpid())-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: destination.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: destination.path)
        else {
            return done(.failure(CocoaError(.fileWriteUnknown)))
        }
        lock.withLock {
            file = (destination, handle)
            self.done = done
        }
        session.dataTask(with: url).resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { file?.handle.write(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (finished, done) = lock.withLock {
            defer {
                file = nil
                self.done = nil
            }
            return (file, self.done)
        }
        try? finished?.handle.close()
        guard let finished, let done else { return }
        let size = MemoryRound.size(ofFileAt: finished.url)
        done(error.map { .failure($0) } ?? .success(size))
    }
}

/// A result handed from a completion to the waiting thread.
private final class ResultBox: @unchecked Sendable {
    // `lock` guards `result`.
    private let lock = NSLock()
    private var result: Result<Int, any Error> = .success(0)

    func set(_ value: Result<Int, any Error>) { lock.withLock { result = value } }
    func get() -> Result<Int, any Error> { lock.withLock { result } }
}
