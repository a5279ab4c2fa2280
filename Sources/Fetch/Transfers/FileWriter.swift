/// Gathers body bytes and writes them to a file in large writes, copying each piece once.
///
/// Not thread-safe: its owner (``TransferState``) calls it under its lock.
final class FileWriter {
    private let file: FileHandle
    private let capacity: Int
    private var gathered = Data()

    /// - Parameters:
    ///   - file: an open file; the writer does not close it.
    ///   - capacity: bytes gathered before a write.
    init(file: FileHandle, capacity: Int) {
        self.file = file
        self.capacity = capacity
        gathered.reserveCapacity(capacity)
    }

    /// Adds `data`, writing out what is gathered once it reaches the capacity.
    /// - Throws: the error of a failed write.
    func append(_ data: Data) throws {
        gathered.append(data)
        if gathered.count >= capacity { try flush() }
    }

    /// Drops what was gathered and cuts the file to `offset` bytes, writing on from there:
    /// 0 for a body that starts over (a second response on the same task, a server that
    /// ignored a `Range`), the resumed offset for the rest of a partial download.
    /// - Throws: the error of a failed cut.
    func restart(at offset: Int64 = 0) throws {
        gathered.removeAll(keepingCapacity: true)
        try file.truncate(atOffset: UInt64(offset))
    }

    /// Writes out what is gathered.
    /// - Throws: the error of a failed write.
    func flush() throws {
        try file.write(contentsOf: gathered)
        gathered.removeAll(keepingCapacity: true)
    }
}
