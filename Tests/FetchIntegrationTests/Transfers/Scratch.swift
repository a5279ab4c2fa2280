import Foundation
import Testing
import Fetch

/// A folder of its own for one test, removed at the end.
struct ScratchFolder: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A file name in the folder.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The names in the folder, hidden ones included.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Writes a file of `size` bytes where byte i is i % 251, in chunks.
    func makeFile(_ name: String, size: Int) throws -> URL {
        let target = file(name)
        try Data().write(to: target)
        let handle = try FileHandle(forWritingTo: target)
        defer { try? handle.close() }
        // 4,096 repeats of 0...250, made by appending: mapping a million indices one by one
        // holds a test thread for a noticeable while in a debug build
        let pattern = Data((0..<251).map { UInt8($0) })
        var block = Data(capacity: 251 * 4096)
        for _ in 0..<4096 { block.append(pattern) }
        var left = size
        while left > 0 {
            let piece = block.prefix(left)
            try handle.write(contentsOf: piece)
            left -= piece.count
        }
        return target
    }
}

/// Collects progress reports from any thread.
final class ProgressLog: @unchecked Sendable {
    // `lock` guards `reports`.
    private let lock = NSLock()
    private var reports: [TransferProgress] = []

    func record(_ progress: TransferProgress) { lock.withLock { reports.append(progress) } }

    var all: [TransferProgress] { lock.withLock { reports } }
}

/// CRC-32 (IEEE), the checksum the transfer server reports for what it received.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { value, _ in value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
    }

    /// The checksum of the file at `url`, read in chunks.
    static func of(_ url: URL) throws -> UInt32 {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var crc: UInt32 = 0xFFFF_FFFF
        try table.withUnsafeBufferPointer { table in
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                    let bytes = bytes.bindMemory(to: UInt8.self)
                    var index = 0
                    while index < bytes.count {
                        crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                        index += 1
                    }
                }
            }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

/// What the transfer server answers to `/upload` and `/multipart`.
struct ReceivedBody: Decodable, Parsable {
    struct Part: Decodable, Equatable {
        let name: String?
        let filename: String?
        let contentType: String?
        let size: Int
        let crc32: UInt32
    }

    let method: String
    let bytes: Int
    let crc32: UInt32
    let contentType: String
    let headers: [String: String]
    let parts: [Part]?
    let complete: Bool?
}
