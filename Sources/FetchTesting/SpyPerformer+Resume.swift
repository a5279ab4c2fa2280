import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// A download the spy cuts off: the start of a body arrives, then the transfer fails. Script
/// it with ``SpyPerformer/Answer/cutDownload(_:after:failing:)``.
public struct CutDownload: Error, Sendable {
    /// The response whose body is cut: its status and headers, and the bytes that arrived.
    public var response: Response
    /// How the transfer fails.
    public var code: FetchError.Code
}

extension SpyPerformer.Answer {
    /// Answers a download with the first `bytes` bytes of `response`'s body, then fails with
    /// `code`, as a connection lost halfway does. The bytes are kept next to the destination by
    /// `Session`'s rules (only for a resumable response: a strong `ETag` or `Last-Modified`, no
    /// `Content-Encoding`), so the next attempt or download there asks for the rest.
    ///
    /// For a 206, `response`'s body is the part it sends (its `Content-Range` says where
    /// that part starts). Any other call gets the failure alone.
    /// - Parameters:
    ///   - response: the response, with its whole body (or part, for a 206).
    ///   - bytes: how many bytes of the body arrive before the failure.
    ///   - code: the failure; `connectionLost` by default.
    public static func cutDownload(
        _ response: Response, after bytes: Int,
        failing code: FetchError.Code = .connectionLost
    ) -> SpyPerformer.Answer {
        var head = response
        head.body = response.body.prefix(max(0, bytes))
        return .failure(CutDownload(response: head, code: code))
    }
}

extension SpyPerformer {
    /// The error a call is answered with: for a cut download, the failure it stands for,
    /// once the bytes that arrived are kept next to the call's destination.
    static func failure(_ error: any Error, for call: RecordedCall) -> any Error {
        guard let cut = error as? CutDownload else { return error }
        let failure = FetchError(cut.code, reason: "the download was cut after \(cut.response.body.count) bytes")
        guard let destination = call.destination, let urlRequest = call.urlRequest else { return failure }
        var response = cut.response
        response.urlRequest = urlRequest
        do {
            try destination.keepPartial(cut.response.body, of: response, for: call.request)
        } catch {
            return error
        }
        return failure
    }

    /// Reports `fractions` of the body of `response`, a 2xx answer to a download; a 206 counts
    /// from its `Content-Range` start, out of the whole body, as a resumed download does.
    static func reportDownload(
        _ fractions: [Double], of response: Response,
        to progress: @Sendable (TransferProgress) -> Void
    ) {
        let count = Int64(response.body.count)
        var (start, total) = (Int64(0), count)
        if response.status == 206, let range = response.headers.first("Content-Range"), range.hasPrefix("bytes "),
            let first = range.dropFirst(6).split(separator: "-").first.flatMap({ Int64($0) })
        {
            start = first
            total = range.split(separator: "/").last.flatMap { Int64($0) } ?? first + count
        }
        for fraction in fractions {
            let done = start + Int64((Double(count) * min(max(fraction, 0), 1)).rounded(.down))
            progress(TransferProgress(completedBytes: done, expectedBytes: total))
        }
    }
}
