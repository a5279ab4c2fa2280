/// What a call asks for besides an ordinary response: its body written to a file, progress reports, or both
/// (see <doc:TransferringFiles>).
public struct TransferOptions: Sendable {
    /// Where the response body goes: set for a download, `nil` for an upload.
    public var destination: DownloadDestination?
    /// Called with the bytes received (a download) or sent (an upload) so far.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// Set by `download`: whether the caller cancelled with ``DownloadHandle/cancelKeepingPartial()``.
    var keepsPartial: Locked<Bool>?

    /// Makes the options of a download (with a destination) or an upload (without one).
    public init(destination: DownloadDestination? = nil, progress: (@Sendable (TransferProgress) -> Void)? = nil) {
        self.destination = destination
        self.progress = progress
    }
}
