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
///
/// The transfer is the only way to receive its result, so letting go of it (its last
/// reference, its ``progress`` sequence's included) before it ends cancels it, as a
/// cancelled call: a download's partial file is deleted and nothing is moved into place;
/// the call's log line says the transfer was dropped, after how many bytes.
public final class Transfer<Value: Sendable>: Cancellable, Sendable {
    private let outcome = ResultOnce<Value>()
    /// The bytes the last progress report counted.
    private let bytes = Locked<Int64>(0)
    private let reports: AsyncStream<TransferProgress>
    private let continuation: AsyncStream<TransferProgress>.Continuation
    /// The call, set as soon as it has started: cancelling the transfer cancels it.
    private let call = Locked<(any Cancellable)?>(nil)
    /// Where the call's log hears that the transfer was dropped.
    private let dropped = DroppedHandle()

    /// The progress reports, in order; the sequence ends when the transfer ends. It holds
    /// the transfer: reading it keeps the transfer going.
    public var progress: Progress { Progress(transfer: self) }

    private init() {
        (reports, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(100))
    }

    deinit {
        // Nothing awaits `value` (it holds the transfer), and nothing else can receive the result.
        if outcome.result == nil {
            dropped.record("its Transfer was dropped after \(bytes.withLock { $0 }) bytes")
            cancel()
        }
        continuation.finish()
    }

    /// Starts a transfer through `start`, which gets the progress and completion callbacks
    /// to pass to a performer, and the note to put in the request's options
    /// (``RequestOptions/droppedHandle``), and returns its cancellation handle.
    static func start(
        _ start: (
            _ progress: @escaping @Sendable (TransferProgress) -> Void,
            _ completion: @escaping @Sendable (Result<Value, any Error>) -> Void,
            _ dropped: DroppedHandle
        ) -> any Cancellable
    ) -> Transfer<Value> {
        let transfer = Transfer<Value>()
        // Weakly: the call holds its callbacks until it ends, and the transfer must go when
        // its caller lets go of it.
        let cancellable = start(
            { [weak transfer] in transfer?.report($0) }, { [weak transfer] in transfer?.finish($0) }, transfer.dropped)
        transfer.call.withLock { $0 = cancellable }
        return transfer
    }

    /// The result once the transfer has ended, `nil` before.
    public var result: Result<Value, any Error>? { outcome.result }

    /// Waits for the transfer to end and returns its value.
    ///
    /// Cancelling the waiting `Task` cancels the transfer.
    /// - Throws: the transfer's error; ``FetchError/Code-swift.enum/cancelled`` when cancelled.
    public var value: Value {
        get async throws { try await outcome.value(cancelling: self) }
    }

    /// Cancels the transfer; it ends with ``FetchError/Code-swift.enum/cancelled`` unless it
    /// had already ended.
    public func cancel() { call.withLock { $0 }?.cancel() }

    private func report(_ progress: TransferProgress) {
        bytes.withLock { $0 = progress.completedBytes }
        continuation.yield(progress)
    }

    private func finish(_ result: Result<Value, any Error>) {
        continuation.finish()
        outcome.finish(result)
    }
}

extension Transfer {
    /// The progress reports of a transfer, in order: an `AsyncSequence` that ends when the
    /// transfer does, and holds the transfer while it is read.
    public struct Progress: AsyncSequence, Sendable {
        /// A progress report.
        public typealias Element = TransferProgress
        let transfer: Transfer<Value>

        /// Starts reading.
        public func makeAsyncIterator() -> Iterator {
            Iterator(transfer: transfer, reports: transfer.reports.makeAsyncIterator())
        }

        /// Reads the reports in order.
        public struct Iterator: AsyncIteratorProtocol {
            let transfer: Transfer<Value>
            var reports: AsyncStream<TransferProgress>.Iterator

            /// The next report, or `nil` once the transfer has ended.
            public mutating func next() async -> TransferProgress? { await reports.next() }
        }
    }
}

extension Transfer where Value == DownloadedFile {
    /// Cancels the download and keeps what it received next to its destination, so that the
    /// next download to the same destination resumes from there; see
    /// ``DownloadHandle/cancelKeepingPartial()``.
    public func cancelKeepingPartial() {
        guard let download = call.withLock({ $0 }) as? DownloadHandle else { return cancel() }
        download.cancelKeepingPartial()
    }
}
