/// A download in progress on disk: its partial file next to the destination, locked (`flock`) while written so that a
/// second download to it fails rather than mix its bytes in, moved into place by ``commit(length:)``, kept for a
/// resume or deleted by ``end(keeping:)``; file system failures throw `file`. Its I/O runs under its own leaf lock and
/// finds the file gone once ended: no late byte lands.
final class StagedDownload: Sendable {
    let finalURL: URL
    let files: PartialFiles
    let replacing: Bool
    let requestURL: URL?
    /// Set when this attempt's request asks for the rest of the partial file.
    let resume: ResumePoint?
    /// The open, locked partial file and the bytes gathered for its next write; `nil` once moved, kept or deleted.
    private let file: Locked<(handle: FileHandle, gathered: Data)?>

    /// Bytes gathered before one write to disk, so the delegate queue keeps up with the network.
    static let writeSize = 256 * 1024

    /// Opens the partial file, or throws `file` (the destination may not be replaced, its folder is missing or
    /// unwritable, another download is under way). A stale `Range` and `If-Range` are taken out of `urlRequest`.
    init(_ destination: DownloadDestination, for request: any Request, sending urlRequest: inout URLRequest) throws {
        finalURL = try destination.resolve(for: request)
        replacing = destination.replacesExisting
        files = PartialFiles(finalURL: finalURL)
        file = Locked((try Self.openLocked(files, for: finalURL), Data(capacity: Self.writeSize)))
        requestURL = urlRequest.url
        resume = ResumePoint.asked(by: urlRequest, of: files)
        if resume == nil, urlRequest.value(forHTTPHeaderField: "If-Range") != nil {
            urlRequest.setValue(nil, forHTTPHeaderField: "Range")
            urlRequest.setValue(nil, forHTTPHeaderField: "If-Range")
        }
    }

    /// Cuts the partial file to `offset` bytes (0 for a fresh body) and writes `record` beside it, or removes it.
    func begin(at offset: Int64, record: PartialRecord?) throws {
        try withFile { file in
            try files.write(record)
            file.gathered.removeAll(keepingCapacity: true)
            try file.handle.truncate(atOffset: UInt64(offset))
        }
    }

    func append(_ data: Data) throws {
        try withFile { file in
            file.gathered.append(data)
            if file.gathered.count >= Self.writeSize { try Self.flush(&file) }
        }
    }

    /// Deletes the partial file and opens a fresh one; `false` when the download had already ended.
    func reopen() throws -> Bool {
        try file.withLock { file in
            guard let old = file else { return false }
            file = nil
            files.remove()
            try? old.handle.close()
            file = (try Self.openLocked(files, for: finalURL), Data(capacity: Self.writeSize))
            return true
        }
    }

    /// Moves the file to the destination, removing the record; throws `badServerResponse` when it does not have
    /// `length` bytes. A failure deletes the partial files.
    func commit(length: Int64?) throws -> URL {
        try file.withLock { file in
            guard var open = file else {
                throw FetchError(.file, reason: "the download was stopped before it completed")
            }
            file = nil
            do {
                try Self.flush(&open)
                if let length, case let size = lseek(open.handle.fileDescriptor, 0, SEEK_END), size != length {
                    throw FetchError(.badServerResponse, reason: "the resumed body ended at \(size) bytes of \(length)")
                }
                try open.handle.close()
                try move()
                unlink(files.recordURL.path)
                return finalURL
            } catch {
                files.remove()
                try? open.handle.close()
                throw error as? FetchError ?? writeError(error, finalURL)
            }
        }
    }

    /// Ends the partial file, once: kept for a resume when `keeping` (unless writing it out fails), else deleted.
    func end(keeping: Bool) {
        file.withLock { file in
            guard let open = file else { return }
            file = nil
            if !keeping || (try? open.handle.write(contentsOf: open.gathered)) == nil {
                // Deleted before closing: the lock keeps another download from taking the name meanwhile.
                files.remove()
            }
            try? open.handle.close()
        }
    }

    /// Runs `body` with the open file, nothing once it has ended; names a failure.
    private func withFile(_ body: (inout (handle: FileHandle, gathered: Data)) throws -> Void) throws {
        try file.withLock { file in
            guard var open = file else { return }
            // Taken out while it changes, so that the gathered bytes are not copied.
            file = nil
            defer { file = open }
            do { try body(&open) } catch { throw writeError(error, files.bytesURL) }
        }
    }

    private static func flush(_ file: inout (handle: FileHandle, gathered: Data)) throws {
        try file.handle.write(contentsOf: file.gathered)
        file.gathered.removeAll(keepingCapacity: true)
    }

    private func writeError(_ error: any Error, _ url: URL) -> FetchError {
        FetchError(.file, reason: "could not write \(url.path): \(error.localizedDescription)", underlying: error)
    }

    private func move() throws {
        let partialPath = files.bytesURL.path
        if !replacing {
            // A hard link never replaces an existing file, so no other writer is overwritten.
            if link(partialPath, finalURL.path) == 0 {
                unlink(partialPath)
                return
            }
            // Taken; or a file system without hard links: check, then rename.
            if errno == EEXIST || FileManager.default.fileExists(atPath: finalURL.path) {
                throw DownloadDestination.exists(finalURL)
            }
        }
        guard rename(partialPath, finalURL.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw FetchError(.file, reason: "could not move the download to \(finalURL.path): \(reason)")
        }
    }

    private static func openLocked(_ files: PartialFiles, for finalURL: URL) throws -> FileHandle {
        let folder = finalURL.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FetchError(.file, reason: "the folder \(folder.path) does not exist")
        }
        let path = files.bytesURL.path
        // A download that ends deletes its file; the one opened here must be the one the name points to once locked.
        for _ in 0..<3 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw FetchError(.file, reason: "could not create \(path): \(String(cString: strerror(errno)))")
            }
            guard FileLock.take(descriptor) else {
                close(descriptor)
                throw FetchError(.file, reason: "another download to \(finalURL.path) is under way")
            }
            var opened = stat()
            var named = stat()
            if fstat(descriptor, &opened) == 0, stat(path, &named) == 0,
                opened.st_ino == named.st_ino, opened.st_dev == named.st_dev
            {
                return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            }
            close(descriptor)
        }
        throw FetchError(.file, reason: "another download to \(finalURL.path) is under way")
    }
}
