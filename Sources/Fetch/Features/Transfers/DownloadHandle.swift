/// The handle of a download started with ``RequestPerforming/download(_:to:progress:completion:)``: cancel it, throwing
/// away what it received, or keeping that for a later resume.
///
/// Either way it ends at once, completing with ``FetchError/Code-swift.enum/cancelled``; nothing more is written.
public final class DownloadHandle: Cancellable {
    private let call = CancellationHandle()
    let keepsPartial = Locked(false)

    /// Cancels the download and deletes what it received.
    public func cancel() { call.cancel() }

    /// Cancels the download and keeps what it received, so the next download to the same destination resumes (see
    /// ``PartialDownload``); only a `.file` whose server sent a strong validator can resume, else this is ``cancel()``.
    public func cancelKeepingPartial() {
        keepsPartial.withLock { $0 = true }
        call.cancel()
    }

    func run(_ inner: any Cancellable) { call.setAction { inner.cancel() } }
}
