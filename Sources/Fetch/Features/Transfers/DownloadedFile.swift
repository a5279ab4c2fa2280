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

    /// The file a performer wrote (``Response/fileURL``), or its body in memory written to `destination` the same way.
    /// - Throws: ``FetchError/Code-swift.enum/httpStatus`` for a status other than 2xx;
    ///   ``FetchError/Code-swift.enum/file`` when the body cannot be written;
    ///   ``FetchError/Code-swift.enum/badServerResponse`` when it cannot continue a partial download.
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
