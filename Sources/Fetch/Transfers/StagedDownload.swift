import Foundation

/// A download in progress on disk: a hidden partial file next to the destination, moved
/// into place by ``commit()`` or deleted by ``discard()``.
struct StagedDownload: Sendable {
    /// Where the body goes once complete.
    let finalURL: URL
    /// The partial file being written, in the same folder so the move is a rename.
    let partialURL: URL
    /// May an existing file at `finalURL` be replaced?
    let replacing: Bool
    /// The partial file, open for writing.
    let handle: FileHandle

    /// Creates the partial file for a download of `request` to `destination`.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when the destination exists and may
    ///   not be replaced, or its folder is missing or cannot be written.
    init(_ destination: DownloadDestination, for request: any Request) throws {
        finalURL = try destination.resolve(for: request)
        replacing = destination.replacesExisting
        partialURL = finalURL.deletingLastPathComponent()
            .appendingPathComponent(".fetch-" + UUID().uuidString + ".partial")
        handle = try FileBody.create(partialURL)
    }

    /// Closes the partial file and moves it to the destination.
    /// - Returns: the destination.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when the destination appeared meanwhile
    ///   and may not be replaced, or the move fails; the partial file is then deleted.
    func commit() throws -> URL {
        do {
            try handle.close()
            try move()
            return finalURL
        } catch {
            discard()
            throw error as? FetchError
                ?? FetchError(.file, reason: "could not write \(finalURL.path): \(error)", underlying: error)
        }
    }

    private func move() throws {
        if replacing {
            guard rename(partialURL.path, finalURL.path) == 0 else { throw Self.failure("move", to: finalURL) }
            return
        }
        // A hard link never replaces an existing file, so no other writer is overwritten.
        if link(partialURL.path, finalURL.path) == 0 {
            unlink(partialURL.path)
            return
        }
        if errno == EEXIST { throw DownloadDestination.exists(finalURL) }
        // A file system without hard links: check, then rename.
        if FileManager.default.fileExists(atPath: finalURL.path) { throw DownloadDestination.exists(finalURL) }
        guard rename(partialURL.path, finalURL.path) == 0 else { throw Self.failure("move", to: finalURL) }
    }

    /// Closes and deletes the partial file; safe to call more than once.
    func discard() {
        try? handle.close()
        unlink(partialURL.path)
    }

    private static func failure(_ action: String, to url: URL) -> FetchError {
        let reason = String(cString: strerror(errno))
        return FetchError(.file, reason: "could not \(action) the download to \(url.path): \(reason)")
    }
}
