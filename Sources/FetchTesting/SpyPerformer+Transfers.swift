import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// Downloads and uploads reach the spy as calls of their kind (`RequestOptions.kind`):
/// they are recorded as such (``RecordedCall/kind``,
/// ``RecordedCall/destination``) and answered from the script like any call.
///
/// A 2xx answer to a download reports ``SpyPerformer/progressFractions`` of its body's
/// size; the body is then written to the destination by the same rules as `Session` (an
/// existing file is replaced only when the destination says so), a final report follows,
/// and the call completes with the file and the response without its body; all before
/// `download` returns unless the answer is ``SpyPerformer/Answer/hold``. Another status
/// fails with `FetchError.httpStatus` and writes nothing. An upload's
/// response (of any status) is preceded by ``SpyPerformer/progressFractions`` of the
/// body's size and a final report; an error is not.
extension SpyPerformer {
    /// Reports the scripted progress of a transfer answered with `response`.
    /// - Throws: the error encoding a form to measure it, rather than reporting a wrong size.
    static func reportProgress(
        of transfer: TransferOptions, answering request: any Request, with response: Response,
        fractions: [Double]
    ) throws {
        guard let progress = transfer.progress else { return }
        if transfer.destination != nil {
            // The download's final report follows the write (see `download`).
            guard response.isSuccess else { return }
            reportDownload(fractions, of: response, to: progress)
            return
        }
        let total = try length(of: request.body, builtInto: response.urlRequest)
        report(fractions, of: total, to: progress)
        progress(.finished(total))
    }

    private static func report(
        _ fractions: [Double], of total: Int64,
        to progress: @Sendable (TransferProgress) -> Void
    ) {
        for fraction in fractions {
            let done = Int64((Double(total) * min(max(fraction, 0), 1)).rounded(.down))
            progress(TransferProgress(completedBytes: done, expectedBytes: total))
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
