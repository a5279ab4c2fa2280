/// The temporary file where a stream keeps what its reader has not taken once its memory
/// buffer is full (see ``StreamBuffer``).
///
/// Made in the temporary directory and unlinked at once, while open: nothing is left on
/// disk when the stream ends, when it is cancelled or when the process dies. Not
/// synchronized: its ``StreamSink`` calls it under the sink's `io` lock.
final class SpillFile {
    private let descriptor: Int32

    /// Makes the file in `directory` and unlinks it.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when the directory refuses it.
    init(in directory: String = NSTemporaryDirectory()) throws {
        let template = (directory as NSString).appendingPathComponent("fetch-stream-XXXXXX")
        var path = Array(template.utf8CString)
        let descriptor = path.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Self.failure("could not be made in \(directory)") }
        unlink(path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Writes all of `data` at `offset`.
    /// - Throws: ``FetchError/Code-swift.enum/file`` (the disk is full, for one).
    func write(_ data: Data, at offset: Int) throws {
        var done = 0
        while done < data.count {
            let wrote = data.withUnsafeBytes { bytes in
                pwrite(descriptor, bytes.baseAddress! + done, data.count - done, off_t(offset + done))
            }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw Self.failure("could not be written") }
            done += wrote
        }
    }

    /// Reads `count` bytes at `offset`, all of which were written.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when they cannot be read back.
    func read(at offset: Int, count: Int) throws -> Data {
        var data = Data(count: count)
        var done = 0
        while done < count {
            let got = data.withUnsafeMutableBytes { bytes in
                pread(descriptor, bytes.baseAddress! + done, count - done, off_t(offset + done))
            }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Self.failure("could not be read back") }
            done += got
        }
        return data
    }

    /// Gives the file's space back: the reader has taken all of it.
    func empty() {
        // A file that keeps its size costs disk space only; it is gone with the stream.
        _ = ftruncate(descriptor, 0)
    }

    private static func failure(_ what: String) -> FetchError {
        FetchError(
            .file,
            reason: "the temporary file that keeps what a stream's reader has not taken \(what): "
                + String(cString: strerror(errno)))
    }
}
