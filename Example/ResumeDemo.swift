import Foundation
import Fetch
import FetchTesting

/// A download that loses its connection halfway and resumes, answered by a ``SpyPerformer``
/// so it runs offline and the same every time: the first attempt gets 400 of 1,000 bytes,
/// then the retry policy sends a second one, which asks only for the rest.
enum ResumeDemo {
    /// Runs the download into a temporary folder and returns what happened, one line per step.
    static func run() throws -> [String] {
        let body = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0) })
        let whole = Response(status: 200, headers: ["ETag": "\"v1\"", "Content-Length": "1000"], body: body)
        let rest = Response(
            status: 206, headers: ["ETag": "\"v1\"", "Content-Range": "bytes 400-999/1000"],
            body: body.suffix(from: 400))
        let spy = SpyPerformer([.cutDownload(whole, after: 400), .response(rest)])
        spy.progressFractions = [0.5]
        let api = spy.retrying(.constant(maxAttempts: 3, delay: .seconds(1)), scheduler: ImmediateScheduler())

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let progress = ProgressLines()
        let result = ResultBox<DownloadedFile>()
        api.download(
            BasicRequest(url: URL(string: "https://files.example.com/big.bin")!),
            to: .file(folder.appendingPathComponent("big.bin")), progress: progress.add
        ) { result.set($0) }

        guard let file = try result.value?.get() else { throw ExampleFailure("the spy did not answer at once") }
        let asked = spy.urlRequests.map { $0?.value(forHTTPHeaderField: "Range") ?? "the whole body" }
        return [
            "attempt 1 asked for \(asked[0]): 400 of 1000 bytes arrived, then the connection was lost",
            "attempt 2 asked for Range: \(asked[1]) with If-Range: \(spy.urlRequests[1]?.value(forHTTPHeaderField: "If-Range") ?? "")",
            "progress: " + progress.lines.joined(separator: ", "),
            "HTTP \(file.status): the file holds the whole body: \(try Data(contentsOf: file.fileURL) == body)",
        ]
    }
}

/// The progress reports of a download, as text.
final class ProgressLines: @unchecked Sendable {
    // `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] { lock.withLock { stored } }

    func add(_ progress: TransferProgress) {
        lock.withLock { stored.append("\(progress.completedBytes) of \(progress.expectedBytes ?? 0)") }
    }
}
