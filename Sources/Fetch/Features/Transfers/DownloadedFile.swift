/// The result of a download: the response without its body, and the file that holds it.
public struct DownloadedFile: Sendable {
    /// The response, without its body.
    public var response: Response
    /// The destination the caller chose, or a temporary file the caller must move or delete.
    public var fileURL: URL

    /// Makes a result.
    public init(response: Response, fileURL: URL) {
        self.response = response
        self.fileURL = fileURL
    }

    /// The HTTP status of the response.
    public var status: Int { response.status }
}
