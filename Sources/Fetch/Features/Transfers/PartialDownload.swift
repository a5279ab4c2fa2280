/// What a download that stopped early left next to its destination, for the next download there to resume.
///
/// A download keeps its partial file (`<destination>.fetchpart`, with a record in `<destination>.fetchpart.json`) when
/// it fails with one of ``resumableCodes`` or is cancelled with ``DownloadHandle/cancelKeepingPartial()``, and only
/// when the server gave a strong validator (see <doc:TransferringFiles>). Any other end deletes it.
public struct PartialDownload: Sendable, Hashable {
    /// The destination the download was writing to.
    public let destination: URL
    /// The file holding the bytes received so far.
    public let fileURL: URL
    /// How many bytes of the body are on disk.
    public let receivedBytes: Int64
    /// The whole body's size, when the server announced it.
    public let expectedBytes: Int64?

    /// Failures after which a download keeps its partial file; retry policies retry them by default, resuming it.
    public static let resumableCodes: Set<FetchError.Code> = [
        .connectionLost, .timedOut, .notConnected, .cannotConnect,
    ]

    /// The partial download kept for `destination`, or `nil` when there is none to resume.
    public static func existing(for destination: URL) -> PartialDownload? {
        let files = PartialFiles(finalURL: destination)
        guard let point = ResumePoint(files, for: files.readRecord().flatMap { URL(string: $0.url) }) else {
            return nil
        }
        return PartialDownload(
            destination: destination, fileURL: files.bytesURL, receivedBytes: point.size,
            expectedBytes: point.record.length)
    }

    /// Deletes the partial download kept for `destination`, unless a download to it is under way or its file cannot
    /// be opened.
    /// - Returns: whether nothing is left (there was nothing, or it was deleted).
    @discardableResult
    public static func discard(for destination: URL) -> Bool {
        let files = PartialFiles(finalURL: destination)
        let descriptor = open(files.bytesURL.path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else {
            // Nothing there, or something that cannot be opened, and so is left.
            guard errno == ENOENT || errno == ENOTDIR else { return false }
            unlink(files.recordURL.path)
            return true
        }
        defer { close(descriptor) }
        guard FileLock.take(descriptor) else { return false }
        files.remove()
        return true
    }

    static func keeps(after error: any Error) -> Bool {
        (error as? FetchError).map { resumableCodes.contains($0.code) } ?? false
    }
}
