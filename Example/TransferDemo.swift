import Foundation
import Fetch

/// Downloads a file with a progress bar in the terminal, then deletes it.
///
/// With no `source`, a small server started here on 127.0.0.1 serves `size` bytes, so the
/// demo runs offline. Against httpbin, pass for example
/// `URL(string: "http://127.0.0.1:8080/bytes/102400")` (httpbin serves at most 100 KiB
/// there; `/stream-bytes/N` streams more without a Content-Length).
/// - Parameters:
///   - source: the URL to download; the local demo server when `nil`.
///   - size: how many bytes the local server sends.
///   - session: the performer; any ``RequestPerforming`` works, a spy included.
func runDownloadDemo(
    from source: URL? = nil, size: Int = 64_000_000, session: any RequestPerforming = Session()
) async throws {
    let url: URL
    if let source {
        url = source
    } else {
        let server = try DemoByteServer(size: size)
        url = server.url
    }
    let bar = ProgressBar()
    bar.say("Downloading \(url.absoluteString)")
    let file = try await session.download(BasicRequest(url: url), to: .temporaryFile) { bar.show($0) }
    bar.end()
    let bytes = try FileManager.default.attributesOfItem(atPath: file.fileURL.path)[.size] as? Int ?? 0
    bar.say("HTTP \(file.status): \(bytes) bytes in \(file.fileURL.path)")
    // The temporary file is the caller's: move it somewhere or delete it.
    try FileManager.default.removeItem(at: file.fileURL)
    bar.say("Deleted it again.")
}

/// A one-line progress bar, redrawn in place with a carriage return.
final class ProgressBar: Sendable {
    private let width = 30

    /// Redraws the bar for `progress`.
    func show(_ progress: TransferProgress) {
        let line: String
        if let fraction = progress.fractionCompleted {
            let filled = Int(fraction * Double(width))
            line =
                "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
                + progress.description
        } else {
            line = "[" + String(repeating: "?", count: width) + "] " + progress.description
        }
        FileHandle.standardOutput.write(Data(("\r" + line + "   ").utf8))
    }

    /// Ends the bar's line.
    func end() { FileHandle.standardOutput.write(Data("\n".utf8)) }

    /// Writes a line, unbuffered like the bar (so the two never come out of order).
    func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
}
