import Foundation

/// A folder of its own for one test, removed at the end.
struct TemporaryFolder: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("fetch-unit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A file name in the folder.
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The names in the folder, hidden ones included, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Writes `text` to a file in the folder.
    func write(_ text: String, to name: String) throws -> URL {
        let target = file(name)
        try Data(text.utf8).write(to: target)
        return target
    }
}
