/// A download in progress on disk: its partial file next to the destination
/// (`<destination>.fetchpart`, with its ``PartialRecord`` in `<destination>.fetchpart.json`),
/// moved into place by ``commit(length:)``, kept for a later resume by ``keep()`` or deleted
/// by ``discard()``.
///
/// The partial file is open and locked (`flock`) while a download writes it, so a second
/// download to the same destination fails (after ``FileLock``'s short patience) rather than
/// mixing its bytes in.
struct StagedDownload: Sendable {
    /// Where the body goes once complete.
    let finalURL: URL
    /// The partial file and its record.
    let files: PartialFiles
    /// May an existing file at `finalURL` be replaced?
    let replacing: Bool
    /// The partial file, open for reading and writing, and locked.
    let handle: FileHandle
    /// The URL the request is first sent to, which the record names.
    let requestURL: URL?
    /// Where this attempt resumes: set when its request asks for the rest of the partial file.
    let resume: ResumePoint?

    /// Opens the partial file for a download of `request` to `destination`, sent as `urlRequest`.
    ///
    /// A `Range` with an `If-Range` that the partial file no longer matches (it changed since
    /// the request was built) is taken out of `urlRequest`: the download then starts again.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when the destination exists and may
    ///   not be replaced, its folder is missing or cannot be written, or another download
    ///   to it is under way.
    init(_ destination: DownloadDestination, for request: any Request, sending urlRequest: inout URLRequest) throws {
        finalURL = try destination.resolve(for: request)
        replacing = destination.replacesExisting
        files = PartialFiles(finalURL: finalURL)
        handle = try Self.openLocked(files, for: finalURL)
        requestURL = urlRequest.url
        resume = ResumePoint.asked(by: urlRequest, of: files)
        if resume == nil, urlRequest.value(forHTTPHeaderField: "If-Range") != nil {
            urlRequest.setValue(nil, forHTTPHeaderField: "Range")
            urlRequest.setValue(nil, forHTTPHeaderField: "If-Range")
        }
    }

    /// Prepares the partial file for the body `answer` describes, and writes or updates
    /// the record.
    /// - Returns: where the body starts in the file, and whether the file can be resumed.
    /// - Throws: the error of writing the record.
    func begin(_ answer: ResumeAnswer, headers: HTTPHeaders) throws -> (offset: Int64, resumable: Bool) {
        switch answer {
        case .fresh(let length):
            let record = PartialRecord(url: requestURL, headers: headers, length: length)
            try files.write(record)
            return (0, record != nil)
        case .append(let offset, let length):
            if var record = resume?.record, record.length == nil, let length {
                record.length = length
                try files.write(record)
            }
            return (offset, true)
        case .whole, .startOver, .notABody:
            // The machine begins a file only for a body (``TransferMachine/Effect/begin(_:_:)``).
            return (0, resume != nil)
        }
    }

    /// Closes the partial file and moves it to the destination, and removes the record.
    /// - Parameter length: the whole body's length, checked against the file's when given.
    /// - Returns: the destination.
    /// - Throws: ``FetchError/Code-swift.enum/badServerResponse`` when the file does not have
    ///   `length` bytes; ``FetchError/Code-swift.enum/file`` when the destination appeared
    ///   meanwhile and may not be replaced, or the move fails. The partial files are then deleted.
    func commit(length: Int64? = nil) throws -> URL {
        do {
            if let length {
                let size = lseek(handle.fileDescriptor, 0, SEEK_END)
                guard size == length else {
                    throw FetchError(.badServerResponse, reason: "the resumed body ended at \(size) bytes of \(length)")
                }
            }
            try handle.close()
            try move()
            unlink(files.recordURL.path)
            return finalURL
        } catch {
            discard()
            throw error as? FetchError
                ?? FetchError(.file, reason: "could not write \(finalURL.path): \(error)", underlying: error)
        }
    }

    private func move() throws {
        let partialPath = files.bytesURL.path
        if replacing {
            guard rename(partialPath, finalURL.path) == 0 else { throw Self.failure("move", to: finalURL) }
            return
        }
        // A hard link never replaces an existing file, so no other writer is overwritten.
        if link(partialPath, finalURL.path) == 0 {
            unlink(partialPath)
            return
        }
        if errno == EEXIST { throw DownloadDestination.exists(finalURL) }
        // A file system without hard links: check, then rename.
        if FileManager.default.fileExists(atPath: finalURL.path) { throw DownloadDestination.exists(finalURL) }
        guard rename(partialPath, finalURL.path) == 0 else { throw Self.failure("move", to: finalURL) }
    }

    /// Closes the partial file and leaves it and its record for the next download to resume.
    func keep() {
        try? handle.close()
    }

    /// Closes and deletes the partial file and its record; safe to call more than once.
    func discard() {
        // Deleted before closing: the lock keeps another download from taking the name meanwhile.
        files.remove()
        try? handle.close()
    }

    /// Opens (or creates) the partial file and takes its lock.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when it cannot be opened, or another
    ///   download holds it.
    private static func openLocked(_ files: PartialFiles, for finalURL: URL) throws -> FileHandle {
        let folder = finalURL.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FetchError(.file, reason: "the folder \(folder.path) does not exist")
        }
        let path = files.bytesURL.path
        // A download that ends deletes the file it holds; the one opened here must be the one
        // the name still points to once locked.
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

    private static func failure(_ action: String, to url: URL) -> FetchError {
        let reason = String(cString: strerror(errno))
        return FetchError(.file, reason: "could not \(action) the download to \(url.path): \(reason)")
    }
}
