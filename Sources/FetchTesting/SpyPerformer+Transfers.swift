import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// Transfers are recorded with their kind and answered from the script, before the call returns
/// unless held: a 2xx download answer reports ``SpyPerformer/progressFractions`` of its body,
/// is written to the destination by `Session`'s rules, then reports its end; another status fails
/// with `FetchError.httpStatus`. An upload's response follows the same reports; an error does not.
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

    /// The body's size: the bytes built into the request, or a streamed body's known length;
    /// a form of unknown length is encoded to measure it.
    /// - Throws: the error encoding the form, rather than reporting a wrong size.
    private static func length(of body: RequestBody?, builtInto urlRequest: URLRequest) throws -> Int64 {
        guard let body else { return 0 }
        guard body.isStreamed else { return Int64(urlRequest.httpBody?.count ?? 0) }
        if let known = body.knownLength { return known }
        return Int64(try body.encoded().count)
    }
}
