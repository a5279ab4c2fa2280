/// The temporary file where a stream keeps what its reader has not taken once its memory buffer is full. Unlinked
/// at once, while open, so nothing is left on disk; used only under its ``StreamSink``'s `io` lock. Making, writing and
/// reading it throw ``FetchError/Code-swift.enum/file`` (a directory that refuses it, a full disk); emptying it never
/// fails the stream.
final class SpillFile: Sendable {
    private let file: FileHandle

    init(in directory: String) throws {
        let template = (directory as NSString).appendingPathComponent("fetch-stream-XXXXXX")
        var path = Array(template.utf8CString)
        let descriptor = path.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw Self.failure("could not be made in \(directory)") }
        unlink(path.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    func write(_ data: Data, at offset: Int) throws {
        do {
            try file.seek(toOffset: UInt64(offset))
            try file.write(contentsOf: data)
        } catch {
            throw Self.failure("could not be written")
        }
    }

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

    func empty() {
        // A failure costs disk space only; the file is gone with the stream.
        try? file.truncate(atOffset: 0)
    }

    private static func failure(_ what: String) -> FetchError {
        FetchError(
            .file,
            reason: "the temporary file that keeps what a stream's reader has not taken \(what): "
                + String(cString: strerror(errno)))
    }
}
