/// How far an upload or a download has come, reported at most about 20 times a second.
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// Bytes sent or received so far.
    public var completedBytes: Int64
    /// The body's size for uploads, the announced `Content-Length` for downloads; `nil` while unknown (chunked).
    public var expectedBytes: Int64?
    /// Set on the last report of a successful transfer.
    public var isFinished: Bool

    /// Makes a progress report.
    public init(completedBytes: Int64, expectedBytes: Int64?, isFinished: Bool = false) {
        self.completedBytes = completedBytes
        self.expectedBytes = expectedBytes
        self.isFinished = isFinished
    }

    /// The report for a finished transfer of `bytes` bytes.
    public static func finished(_ bytes: Int64) -> TransferProgress {
        TransferProgress(completedBytes: bytes, expectedBytes: bytes, isFinished: true)
    }

    /// The completed share, from 0 to 1, when the total is known (1 once finished).
    public var fractionCompleted: Double? {
        if isFinished { return 1 }
        guard let expectedBytes, expectedBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(expectedBytes))
    }

    /// For example `"12.5 MB of 100.0 MB (12%)"` or `"3.1 MB"` when the total is unknown.
    public var description: String {
        let done = Self.megabytes(completedBytes)
        guard let expectedBytes, let fraction = fractionCompleted else { return done }
        return "\(done) of \(Self.megabytes(expectedBytes)) (\(Int(fraction * 100))%)"
    }

    private static func megabytes(_ bytes: Int64) -> String {
        let tenths = (bytes * 10 + 500_000) / 1_000_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
