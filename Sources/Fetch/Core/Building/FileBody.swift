/// File operations for bodies and downloads; each failure is a ``FetchError/Code-swift.enum/file`` naming the file.
enum FileBody {
    /// The size of the regular file at `url`, or `nil` when it is missing or not a regular file.
    static func size(of url: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? NSNumber
        else { return nil }
        return size.int64Value
    }

    static func checkReadable(_ url: URL) throws {
        guard url.isFileURL else { throw FetchError(.file, reason: "\(url.absoluteString) is not a file URL") }
        guard size(of: url) != nil else {
            throw FetchError(.file, reason: "\(url.path) does not exist or is not a regular file")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw FetchError(.file, reason: "\(url.path) cannot be read")
        }
    }

    /// Creates a new, empty file at `url` (failing if one exists) and opens it for writing.
    static func create(_ url: URL) throws -> FileHandle {
        let folder = url.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw FetchError(.file, reason: "the folder \(folder.path) does not exist")
        }
        let descriptor = Foundation.open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw FetchError(.file, reason: "could not create \(url.path): \(reason)")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
