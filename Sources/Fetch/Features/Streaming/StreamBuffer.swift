/// What a stream holds that its reader has not taken: up to ``memoryLimit`` bytes in memory, then the rest in a
/// spill file up to ``spillLimit``. A pure value: ``StreamSink`` carries out the writes and reads it names.
/// Oldest first: memory, the file's unread range, then ``gathered``; once something is spilled, every chunk goes
/// behind it until the reader has taken it all. The file starts at offset 0 again each time it is read through.
struct StreamBuffer: Sendable, Equatable {
    /// How many bytes memory holds before chunks go to the file (one chunk may pass it).
    let memoryLimit: Int
    /// The largest the file may grow; 0 keeps nothing in a file.
    let spillLimit: Int
    let writeSize: Int
    let readSize: Int

    private(set) var memory: [Data] = []
    private var firstInMemory = 0
    private(set) var memoryBytes = 0
    private(set) var fileRead = 0
    private(set) var fileWritten = 0
    /// Bytes behind the file's, waiting for the next write.
    private(set) var gathered = Data()

    enum Arrival: Equatable {
        case kept
        /// Kept: write these bytes to the file at this offset.
        case write(Data, at: Int)
        /// Not kept: the file would grow past ``spillLimit``.
        case overflow
    }

    enum Next: Equatable {
        case chunk(Data)
        /// Read the file at `offset..<offset + count`; when `thenEmpty`, the file can be emptied after.
        case read(at: Int, count: Int, thenEmpty: Bool)
        case none
    }

    init(memoryLimit: Int, spillLimit: Int, writeSize: Int = 256 << 10, readSize: Int = 64 << 10) {
        self.memoryLimit = max(1, memoryLimit)
        self.spillLimit = max(0, spillLimit)
        self.writeSize = max(1, writeSize)
        self.readSize = max(1, readSize)
    }

    var unread: Int { memoryBytes + fileWritten - fileRead + gathered.count }

    var isSpilling: Bool { fileWritten > fileRead || !gathered.isEmpty }

    mutating func append(_ data: Data) -> Arrival {
        guard !data.isEmpty else { return .kept }
        if !isSpilling && memoryBytes < memoryLimit {
            memory.append(data)
            memoryBytes += data.count
            return .kept
        }
        guard fileWritten + gathered.count + data.count <= spillLimit else { return .overflow }
        gathered.append(data)
        guard gathered.count >= writeSize else { return .kept }
        defer {
            fileWritten += gathered.count
            gathered = Data()
        }
        return .write(gathered, at: fileWritten)
    }

    mutating func next() -> Next {
        if firstInMemory < memory.count {
            let chunk = memory[firstInMemory]
            firstInMemory += 1
            memoryBytes -= chunk.count
            if firstInMemory == memory.count || firstInMemory >= 64 {
                memory.removeFirst(firstInMemory)
                firstInMemory = 0
            }
            return .chunk(chunk)
        }
        if fileRead < fileWritten {
            let offset = fileRead
            let count = min(readSize, fileWritten - fileRead)
            fileRead += count
            let drained = fileRead == fileWritten
            if drained { (fileRead, fileWritten) = (0, 0) }
            return .read(at: offset, count: count, thenEmpty: drained)
        }
        if !gathered.isEmpty {
            defer { gathered = Data() }
            return .chunk(gathered)
        }
        return .none
    }

    mutating func removeAll() {
        self = StreamBuffer(memoryLimit: memoryLimit, spillLimit: spillLimit, writeSize: writeSize, readSize: readSize)
    }
}
