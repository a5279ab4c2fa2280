/// The temporary file where a stream keeps what its reader has not taken once its memory
/// buffer is full (see ``StreamBuffer``).
///
/// Made in the temporary directory and unlinked at once, while open: nothing is left on
/// disk when the stream ends, when it is cancelled or when the process dies. Its
/// ``StreamSink`` calls it under the sink's `io` lock only: the offsets are the lock's.
final class SpillFile: Sendable {
    private let file: FileHandle

    /// Makes the file in `directory` and unlinks it.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when the directory refuses it.
    init(in directory: String = NSTemporaryDirectory()) throws {
        let template = (directory as NSString).appendingPathComponent("fetch-stream-XXXXXX")
        var path = Array(template.utf8CString)
        let descriptor = path.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Self.failure("could not be made in \(directory)") }
        unlink(path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Writes all of `data` at `offset`.
    /// - Throws: ``FetchError/Code-swift.enum/file`` (the disk is full, for one).
    func write(_ data: Data, at offset: Int) throws {
        do {
            try file.seek(toOffset: UInt64(offset))
            try file.write(contentsOf: data)
        } catch {
            throw Self.failure("could not be written")
        }
    }

    /// Reads `count` bytes at `offset`, all of which were written.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when they cannot be read back.
    func read(at offset: Int, count: Int) throws -> Data {
        do {
            try file.seek(toOffset: UInt64(offset))
            let data = try file.read(upToCount: count) ?? Data()
            guard data.count == count else { throw CocoaError(.fileReadCorruptFile) }
            return data
        } catch {
            throw Self.failure("could not be read back")
        }
    }

    /// Gives the file's space back: the reader has taken all of it.
    func empty() {
        // A file that keeps its size costs disk space only; it is gone with the stream.
        try? file.truncate(atOffset: 0)
    }

    private static func failure(_ what: String) -> FetchError {
        FetchError(
            .file,
            reason: "the temporary file that keeps what a stream's reader has not taken \(what): "
                + String(cString: strerror(errno)))
    }
}
