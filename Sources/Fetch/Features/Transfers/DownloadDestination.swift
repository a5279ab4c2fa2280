/// Where a download is written; see <doc:TransferringFiles> for the partial file beside it.
public struct DownloadDestination: Sendable {
    enum Kind: Sendable {
        case file(URL, replacing: Bool)
        case temporary(folder: URL)
        /// Named when the call started, so that every attempt writes the same partial file.
        case namedTemporary(URL)
    }

    let kind: Kind

    /// The file at `url`. An existing file fails the download with ``FetchError/Code-swift.enum/file`` before anything
    /// is sent, unless `replacingExisting`: then it is replaced atomically once the body is complete.
    public static func file(_ url: URL, replacingExisting: Bool = false) -> DownloadDestination {
        DownloadDestination(kind: .file(url, replacing: replacingExisting))
    }

    /// A new file with a unique name in `folder`; the caller owns it and must move or delete it.
    public static func temporaryFile(in folder: URL) -> DownloadDestination {
        DownloadDestination(kind: .temporary(folder: folder))
    }

    /// A new file with a unique name in the temporary folder, for the caller to move or delete.
    public static var temporaryFile: DownloadDestination {
        temporaryFile(in: FileManager.default.temporaryDirectory)
    }

    /// Whether an existing file at the destination may be replaced.
    public var replacesExisting: Bool {
        if case .file(_, let replacing) = kind { return replacing }
        return false
    }

    /// - Throws: ``FetchError/Code-swift.enum/file`` when the file exists and may not be replaced.
    func resolve(for request: any Request) throws -> URL {
        switch kind {
        case .file(let url, let replacing):
            guard url.isFileURL else { throw FetchError(.file, reason: "\(url.absoluteString) is not a file URL") }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
                if isFolder.boolValue { throw FetchError(.file, reason: "\(url.path) is a folder") }
                if !replacing { throw Self.exists(url) }
            }
            return url
        case .namedTemporary(let url):
            return url
        case .temporary(let folder):
            let suffix = request.url.pathExtension.isEmpty ? "" : "." + request.url.pathExtension
            return folder.appendingPathComponent("fetch-" + UUID().uuidString + suffix)
        }
    }

    func named(for request: any Request) -> DownloadDestination {
        guard case .temporary = kind, let url = try? resolve(for: request) else { return self }
        return DownloadDestination(kind: .namedTemporary(url))
    }

    /// Deletes what a failed call left, unless a later download to the same `.file` can
    /// resume it (``PartialDownload/resumableCodes``, or cancelled with `keeping`).
    func abandonPartial(after error: any Error, keeping: Bool) {
        guard let url = namedURL else { return }
        let resumable = PartialDownload.keeps(after: error) || (keeping && (error as? FetchError)?.code == .cancelled)
        if case .file = kind, resumable { return }
        PartialDownload.discard(for: url)
    }

    static func exists(_ url: URL) -> FetchError {
        FetchError(.file, reason: "\(url.path) already exists; use .file(url, replacingExisting: true) to replace it")
    }
}
