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

    /// The result of a download from the response a performer delivered: the file it wrote
    /// (``Response/fileURL``), or, when it answered with the body in memory (a test double,
    /// a layer that recovered an error), that body written to `destination` by the same rules.
    /// - Throws: ``FetchError/Code-swift.enum/httpStatus`` for a status other than 2xx;
    ///   ``FetchError/Code-swift.enum/file`` when the body cannot be written.
    init(_ response: Response, writingTo destination: DownloadDestination, for request: any Request,
         progress: (@Sendable (TransferProgress) -> Void)?) throws {
        guard response.isSuccess else { throw FetchError.httpStatus(response) }
        var bodiless = response
        bodiless.fileURL = nil
        bodiless.body = Data()
        if let written = response.fileURL {
            self.init(response: bodiless, fileURL: written)
            return
        }
        let file = try destination.write(response.body, for: request)
        progress?(.finished(Int64(response.body.count)))
        self.init(response: bodiless, fileURL: file)
    }
}
