import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What `Session` tracks for one transfer besides its ``TaskState``: progress, the file a
/// download is written to, the temporary file an encoded form is uploaded from.
///
/// A download goes through a data task whose bytes this state writes to a partial file
/// that Fetch names and owns: URLSession's download tasks on Linux leave their own
/// partial `<UUID>.tmp` file behind on cancellation without ever saying its name.
final class TransferState: @unchecked Sendable {
    // `lock` guards every `var` below and every use of `writer`; the other `let`s are
    // immutable and Sendable.
    private let lock = NSLockShim()
    /// Delivers progress reports and then the completion, in order.
    let events: DispatchQueue
    private let progress: (@Sendable (TransferProgress) -> Void)?
    private let staged: StagedDownload?
    /// A file made for this transfer only (an encoded form), deleted when it ends.
    private let uploadFile: URL?
    private let uploadLength: Int64?

    private var throttle = ProgressThrottle()
    private let writer: FileWriter?
    private var received: Int64 = 0
    private var expected: Int64?
    private var errorBody: Data?
    private var sent: Int64 = 0
    /// No more body bytes are taken (the transfer ended or a write failed).
    private var closed = false
    /// The partial file was moved into place or deleted.
    private var settled = false

    /// Bytes gathered before one write to disk: one system call per 256 KiB rather than
    /// per 16 KiB chunk, so the delegate queue keeps up with the network.
    static let writeSize = 256 * 1024
    /// How much of a non-2xx body is kept for the error; the rest is dropped.
    static let errorBodyLimit = 64 * 1024

    /// - Parameters:
    ///   - staged: the partial file of a download; `nil` for an upload.
    ///   - uploadFile: a file to delete when the transfer ends.
    ///   - uploadLength: the body's length, when known.
    init(staged: StagedDownload?, uploadFile: URL?, uploadLength: Int64?,
         progress: (@Sendable (TransferProgress) -> Void)?, queue: DispatchQueue) {
        self.staged = staged
        self.uploadFile = uploadFile
        self.uploadLength = uploadLength
        self.progress = progress
        writer = staged.map { FileWriter(descriptor: $0.handle.fileDescriptor, capacity: Self.writeSize) }
        events = DispatchQueue(label: "Fetch.Session.transfer", target: queue)
    }

    // MARK: Download

    /// Whether the body goes to a file (a download) rather than to the ``TaskState``.
    var isDownload: Bool { staged != nil }

    /// Takes the response of a download. A 2xx body goes to the file, another one into
    /// memory (up to a limit) for the error.
    /// - Returns: the failure to fail the request with, when emptying the file failed.
    func receive(_ response: URLResponse) -> FetchError? {
        guard let staged else { return nil }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return lock.withLock {
            // After `close()` the file is closed and its descriptor may belong to another file.
            if closed { return nil }
            expected = response.expectedContentLength >= 0 ? response.expectedContentLength : nil
            errorBody = (200..<300).contains(status) ? nil : Data()
            guard received > 0 else { return nil }
            received = 0
            let error = write(to: staged) { try writer?.restart() }
            closed = error != nil
            return error
        }
    }

    /// Takes body bytes of a download.
    /// - Returns: the failure to fail the request with, when a write failed.
    func receive(_ data: Data) -> FetchError? {
        guard let staged else { return nil }
        return lock.withLock {
            if closed { return nil }
            if var kept = errorBody {
                kept.append(data.prefix(max(0, Self.errorBodyLimit - kept.count)))
                errorBody = kept
                return nil
            }
            received += Int64(data.count)
            // A compressed body decodes to more bytes than its announced length.
            if let known = expected, received > known { expected = nil }
            if let error = write(to: staged, { try writer?.append(data) }) {
                closed = true
                return error
            }
            if throttle.allows(at: DispatchTime.now().uptimeNanoseconds) {
                deliver(TransferProgress(completedBytes: received, expectedBytes: expected))
            }
            return nil
        }
    }

    /// Runs a write of the file writer; called under `lock`.
    /// - Returns: the failure, named, if the write failed.
    private func write(to staged: StagedDownload, _ body: () throws -> Void) -> FetchError? {
        do {
            try body()
            return nil
        } catch {
            return FetchError(.file, reason: "could not write \(staged.partialURL.path): \(error)", underlying: error)
        }
    }

    /// Body bytes of a download's current response taken so far.
    var receivedBytes: Int64 { lock.withLock { received } }

    /// The kept start of a non-2xx body, or `nil` when the status was 2xx.
    var keptErrorBody: Data? { lock.withLock { errorBody } }

    /// Writes what is left, moves the file into place and reports completion.
    /// - Returns: the file.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when it cannot be written or moved.
    func commitDownload() throws -> URL {
        guard let staged else { throw FetchError(.file, reason: "the transfer has no file") }
        let (total, error): (Int64, FetchError?) = lock.withLock {
            if closed { return (0, FetchError(.file, reason: "the download was stopped before it completed")) }
            defer { closed = true; settled = true }
            return (received, write(to: staged) { try writer?.flush() })
        }
        if let error {
            staged.discard()
            throw error
        }
        let url = try staged.commit()
        deliver(.finished(total))
        return url
    }

    // MARK: Upload

    /// Takes URLSession's count of body bytes sent.
    func sentBody(total: Int64, expectedTotal: Int64) {
        lock.withLock {
            sent = total
            guard !closed, throttle.allows(at: DispatchTime.now().uptimeNanoseconds) else { return }
            let announced = expectedTotal > 0 ? expectedTotal : nil
            deliver(TransferProgress(completedBytes: total, expectedBytes: uploadLength ?? announced))
        }
    }

    /// Reports a finished upload: the whole body after a 2xx answer, otherwise what
    /// URLSession counted as sent (a server may answer, say 413, before reading it all).
    func finishUpload(status: Int) {
        lock.withLock {
            let total = (200..<300).contains(status) ? uploadLength ?? sent : sent
            deliver(.finished(total))
        }
    }

    // MARK: End

    /// Ends the transfer: deletes the partial download and the temporary upload file;
    /// later bytes are dropped. Safe to call more than once.
    func close() {
        let discard = lock.withLock {
            defer { closed = true; settled = true }
            return !settled
        }
        if discard { staged?.discard() }
        if let uploadFile { unlink(uploadFile.path) }
    }

    /// Queues `report` ahead of anything queued later. Called under `lock`, so that a
    /// report taken before `close()` is queued before the completion, never after it.
    private func deliver(_ report: TransferProgress) {
        guard let progress else { return }
        events.async { progress(report) }
    }
}
