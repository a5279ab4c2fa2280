import Foundation

/// Where a download is written.
///
/// ```swift
/// session.download(request, to: .file(reportURL))                          // must not exist yet
/// session.download(request, to: .file(reportURL, replacingExisting: true))
/// session.download(request, to: .temporaryFile)                            // yours to move or delete
/// ```
///
/// The body is written to a hidden partial file in the destination's folder and moved
/// into place only when the whole body has arrived with a 2xx status, so the destination
/// never holds half a file or an error page; the partial file is deleted on any failure
/// or cancellation.
public struct DownloadDestination: Sendable {
    enum Kind: Sendable {
        case file(URL, replacing: Bool)
        case temporary(folder: URL)
    }

    let kind: Kind

    /// The file at `url`. An existing file there fails the download with
    /// ``FetchError/Code-swift.enum/file`` (before anything is sent) unless
    /// `replacingExisting` is true; it is then replaced atomically once the body is complete.
    public static func file(_ url: URL, replacingExisting: Bool = false) -> DownloadDestination {
        DownloadDestination(kind: .file(url, replacing: replacingExisting))
    }

    /// A new file with a unique name in `folder`; the caller owns it and must move or delete it.
    public static func temporaryFile(in folder: URL) -> DownloadDestination {
        DownloadDestination(kind: .temporary(folder: folder))
    }

    /// A new file with a unique name in the temporary folder; the caller owns it and must
    /// move or delete it.
    public static var temporaryFile: DownloadDestination {
        temporaryFile(in: FileManager.default.temporaryDirectory)
    }

    /// Whether an existing file at the destination may be replaced.
    public var replacesExisting: Bool {
        if case .file(_, let replacing) = kind { return replacing }
        return false
    }

    /// Writes `data` to the destination by the same rules as a download (for test doubles
    /// and stubs that answer downloads from bytes in memory).
    /// - Parameters:
    ///   - data: the whole body to write.
    ///   - request: the request being answered; names a temporary file's extension.
    /// - Returns: the file written.
    /// - Throws: ``FetchError/Code-swift.enum/file`` when the destination exists and may
    ///   not be replaced, or cannot be written.
    public func write(_ data: Data, for request: any Request) throws -> URL {
        let staged = try StagedDownload(self, for: request)
        do {
            try staged.handle.write(contentsOf: data)
            return try staged.commit()
        } catch {
            staged.discard()
            throw error as? FetchError
                ?? FetchError(.file, reason: "could not write \(staged.partialURL.path): \(error)", underlying: error)
        }
    }

    /// The final file URL for a download of `request`, checked against the rules.
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
        case .temporary(let folder):
            let suffix = request.url.pathExtension.isEmpty ? "" : "." + request.url.pathExtension
            return folder.appendingPathComponent("fetch-" + UUID().uuidString + suffix)
        }
    }

    static func exists(_ url: URL) -> FetchError {
        FetchError(.file, reason: "\(url.path) already exists; use .file(url, replacingExisting: true) to replace it")
    }
}
