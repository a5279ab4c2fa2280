import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

extension SpyPerformer: TransferPerforming {
    /// Records the download (with its destination) and answers it from the script.
    ///
    /// A 2xx answer reports ``progressFractions`` of its body's size, writes the body to
    /// the destination by the same rules as `Session` (an existing file is replaced only
    /// when the destination says so), reports completion, then completes with the file and
    /// the response without its body; all before `download` returns unless the answer is
    /// ``Answer/hold``. Another status fails with ``FetchError/Code-swift.enum/httpStatus``
    /// and writes nothing.
    @discardableResult
    public func download(
        _ request: any Request,
        to destination: DownloadDestination,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<DownloadedFile, any Error>) -> Void
    ) -> any Cancellable {
        let fractions = progressFractions
        return answer(request, kind: .download, destination: destination) { result in
            completion(result.flatMap { response in
                guard response.isSuccess else { return .failure(FetchError.httpStatus(response)) }
                let total = Int64(response.body.count)
                Self.report(fractions, of: total, to: progress)
                return Result {
                    let file = try destination.write(response.body, for: request)
                    progress?(.finished(total))
                    var bodiless = response
                    bodiless.body = Data()
                    return DownloadedFile(response: bodiless, fileURL: file)
                }
            })
        }
    }

    /// Records the upload and answers it from the script.
    ///
    /// Like `Session`, it refuses an upload without a body, and a file body whose file is
    /// missing or cannot be read (see ``SpyPerformer``). A response (of any status) is
    /// preceded by ``progressFractions`` of the body's size and a final report; an error is not.
    @discardableResult
    public func upload(
        _ request: any Request,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let fractions = progressFractions
        return answer(request, kind: .upload) { result in
            completion(result.flatMap { response in
                Result {
                    let total = try Self.length(of: request.body, builtInto: response.urlRequest)
                    Self.report(fractions, of: total, to: progress)
                    progress?(.finished(total))
                    return response
                }
            })
        }
    }

    private static func report(_ fractions: [Double], of total: Int64,
                               to progress: (@Sendable (TransferProgress) -> Void)?) {
        for fraction in fractions {
            let done = Int64((Double(total) * min(max(fraction, 0), 1)).rounded(.down))
            progress?(TransferProgress(completedBytes: done, expectedBytes: total))
        }
    }

    /// The body's size: the bytes the request was built with, or for a body streamed from
    /// files, its known length. A form whose length is not known is encoded to measure it.
    /// - Throws: the error encoding the form, rather than reporting a wrong size.
    private static func length(of body: RequestBody?, builtInto urlRequest: URLRequest) throws -> Int64 {
        guard let body else { return 0 }
        guard body.isStreamed else { return Int64(urlRequest.httpBody?.count ?? 0) }
        if let known = body.knownLength { return known }
        return Int64(try body.encoded().count)
    }
}
