import Foundation

/// A transfer under way, for async callers: its progress as an `AsyncSequence`, and its
/// result.
///
/// ```swift
/// let transfer = session.downloading(request, to: .file(url))
/// for await progress in transfer.progress { bar.show(progress) }
/// let file = try await transfer.value
/// ```
///
/// The transfer starts when it is made. ``progress`` ends when the transfer does; a
/// consumer that falls behind gets the newest 100 reports, so the last one (for a
/// success, ``TransferProgress/isFinished``) is always delivered.
public final class Transfer<Value: Sendable>: Cancellable, @unchecked Sendable {
    // `lock` guards `outcome` and `waiters`; `progress`, `continuation` and `handle` are
    // immutable and thread-safe themselves.
    private let lock = Locked()
    private var outcome: Result<Value, any Error>?
    private var waiters: [CheckedContinuation<Value, any Error>] = []
    private let continuation: AsyncStream<TransferProgress>.Continuation
    private let handle = CancellationHandle()
    /// Cancels a download keeping what it received (see ``cancelKeepingPartial()``).
    private let keeper = CancellationHandle()

    /// The progress reports, in order; the sequence ends when the transfer ends.
    public let progress: AsyncStream<TransferProgress>

    private init() {
        (progress, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(100))
    }

    /// Starts a transfer through `start`, which gets the progress and completion callbacks
    /// to pass to a performer and returns its cancellation handle.
    static func start(
        _ start: (
            _ progress: @escaping @Sendable (TransferProgress) -> Void,
            _ completion: @escaping @Sendable (Result<Value, any Error>) -> Void
        ) -> any Cancellable
    ) -> Transfer<Value> {
        let transfer = Transfer<Value>()
        let continuation = transfer.continuation
        let cancellable = start({ continuation.yield($0) }, { transfer.finish($0) })
        transfer.handle.setAction { cancellable.cancel() }
        if let download = cancellable as? DownloadHandle {
            transfer.keeper.setAction { download.cancelKeepingPartial() }
        }
        return transfer
    }

    /// The result once the transfer has ended, `nil` before.
    public var result: Result<Value, any Error>? { lock.withLock { outcome } }

    /// Waits for the transfer to end and returns its value.
    ///
    /// Cancelling the waiting `Task` cancels the transfer.
    /// - Throws: the transfer's error; ``FetchError/Code-swift.enum/cancelled`` when cancelled.
    public var value: Value {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Value, any Error>) in
                    let ready: Result<Value, any Error>? = lock.withLock {
                        if outcome == nil { waiters.append(waiter) }
                        return outcome
                    }
                    if let ready { waiter.resume(with: ready) }
                }
            } onCancel: {
                cancel()
            }
        }
    }

    /// Cancels the transfer; it ends with ``FetchError/Code-swift.enum/cancelled`` unless it
    /// had already ended.
    public func cancel() { handle.cancel() }

    private func finish(_ result: Result<Value, any Error>) {
        let toResume: [CheckedContinuation<Value, any Error>] = lock.withLock {
            guard outcome == nil else { return [] }
            outcome = result
            defer { waiters = [] }
            return waiters
        }
        continuation.finish()
        for waiter in toResume { waiter.resume(with: result) }
    }
}

extension Transfer where Value == DownloadedFile {
    /// Cancels the download and keeps what it received next to its destination, so that the
    /// next download to the same destination resumes from there; see
    /// ``DownloadHandle/cancelKeepingPartial()``.
    public func cancelKeepingPartial() {
        keeper.cancel()
        cancel()
    }
}
