/// Gathers body bytes in a fixed buffer and writes them to a file descriptor in large
/// writes, copying each piece once.
///
/// Not thread-safe: its owner (``TransferState``) calls it under its lock.
final class FileWriter {
    private let descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    private var count = 0

    /// - Parameters:
    ///   - descriptor: an open file descriptor; the writer does not close it.
    ///   - capacity: bytes gathered before a write.
    init(descriptor: Int32, capacity: Int) {
        self.descriptor = descriptor
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Adds `data`, writing the buffer out whenever it fills.
    /// - Throws: an `errno` description when a write fails.
    func append(_ data: Data) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let length = min(buffer.count - count, bytes.count - offset)
                UnsafeMutableRawBufferPointer(rebasing: buffer[count..<(count + length)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)]))
                count += length
                offset += length
                if count == buffer.count { try flush() }
            }
        }
    }

    /// Drops what was gathered and cuts the file to `offset` bytes, writing on from there:
    /// 0 for a body that starts over (a second response on the same task, a server that
    /// ignored a `Range`), the resumed offset for the rest of a partial download.
    /// - Throws: an `errno` description when the file cannot be cut.
    func restart(at offset: Int64 = 0) throws {
        count = 0
        guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset)
        else {
            throw FileWriteError(reason: String(cString: strerror(errno)))
        }
    }

    /// Writes out what is gathered.
    /// - Throws: an `errno` description when a write fails.
    func flush() throws {
        var written = 0
        while written < count {
            let result = write(descriptor, buffer.baseAddress! + written, count - written)
            if result < 0 {
                if errno == EINTR { continue }
                throw FileWriteError(reason: String(cString: strerror(errno)))
            }
            written += result
        }
        count = 0
    }
}

/// A failed write, with the system's reason.
struct FileWriteError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
