/// The handle of a download started with
/// ``RequestPerforming/download(_:to:progress:completion:)``: cancel it, throwing away what
/// it received, or cancel it keeping that for a later resume.
///
/// ```swift
/// let handle = api.download(GetReport(), to: .file(reportURL), progress: nil) { result in print(result) }
/// handle.cancelKeepingPartial()                                  // "pause"
/// let report = try await api.download(GetReport(), to: .file(reportURL))   // resumes where it stopped
/// ```
///
/// Either way the download ends at once: its completion runs with
/// ``FetchError/Code-swift.enum/cancelled`` and nothing more is written to disk.
public final class DownloadHandle: Cancellable {
    private let call = CancellationHandle()
    /// Whether the caller cancelled keeping the partial file; read by the performer that
    /// writes the file, through ``TransferOptions``.
    let keepsPartial = Locked(false)

    init() {}

    /// Cancels the download and deletes what it received.
    public func cancel() { call.cancel() }

    /// Cancels the download and keeps what it received next to its destination, so that the
    /// next download to the same destination resumes from there (see ``PartialDownload``).
    ///
    /// Only a `.file` destination can be resumed by a later call, and only when the server
    /// sent a strong validator; otherwise this is ``cancel()``.
    public func cancelKeepingPartial() {
        keepsPartial.withLock { $0 = true }
        call.cancel()
    }

    /// Makes cancelling this handle cancel `inner`, the call through the performer.
    func run(_ inner: any Cancellable) { call.setAction { inner.cancel() } }
}
