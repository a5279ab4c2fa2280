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
    /// a layer that recovered an error), that body written to `destination` by the same
    /// rules, a 206 that continues a partial download appended to it.
    /// - Throws: ``FetchError/Code-swift.enum/httpStatus`` for a status other than 2xx;
    ///   ``FetchError/Code-swift.enum/file`` when the body cannot be written;
    ///   ``FetchError/Code-swift.enum/badServerResponse`` when a partial download cannot be
    ///   continued with it.
    init(
        _ response: Response, writingTo destination: DownloadDestination, for request: any Request,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) throws {
        var bodiless = response
        bodiless.fileURL = nil
        bodiless.body = Data()
        if let written = response.fileURL, response.isSuccess {
            self.init(response: bodiless, fileURL: written)
            return
        }
        // A 416 to Fetch's own `Range` may say the partial file is whole already.
        guard response.isSuccess || (response.status == 416 && response.fileURL == nil) else {
            throw FetchError.httpStatus(response)
        }
        let (file, size, whole) = try destination.write(response, for: request)
        if whole { bodiless.status = 200 }
        progress?(.finished(size))
        self.init(response: bodiless, fileURL: file)
    }
}
