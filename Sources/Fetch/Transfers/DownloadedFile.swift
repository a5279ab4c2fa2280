import Foundation

/// The result of a download: the response (status, headers, final URL; its body is
/// empty) and the file that now holds the body.
public struct DownloadedFile: Sendable {
    /// The response, without its body.
    public var response: Response
    /// The file holding the body: the destination the caller chose, or a temporary file
    /// that the caller now owns and must move or delete.
    public var fileURL: URL

    /// Makes a result.
    public init(response: Response, fileURL: URL) {
        self.response = response
        self.fileURL = fileURL
    }

    /// The HTTP status of the response.
    public var status: Int { response.status }
}
