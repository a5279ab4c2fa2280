/// A transfer under way, for async callers: its progress as an `AsyncSequence`, and its result. It starts at once,
/// and letting go of it (its ``progress`` counts as a reference) before it ends cancels it.
public final class Transfer<Value: Sendable>: Cancellable, Sendable {
    private let outcome = ResultOnce<Value>()
    private let bytes = Locked<Int64>(0)
    private let reports: AsyncStream<TransferProgress>
    private let continuation: AsyncStream<TransferProgress>.Continuation
    private let call = Locked<(any Cancellable)?>(nil)
    private let dropped = DroppedHandle()

    /// The progress reports, in order, ending with the transfer; they keep the transfer going.
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

    /// Starts a transfer through `start`, given the callbacks and ``RequestOptions/droppedHandle``; returns its handle.
    static func start(
        _ start: (
            _ progress: @escaping @Sendable (TransferProgress) -> Void,
            _ completion: @escaping @Sendable (Result<Value, any Error>) -> Void,
            _ dropped: DroppedHandle
        ) -> any Cancellable
    ) -> Transfer<Value> {
        let transfer = Transfer<Value>()
        // Weakly: the transfer must go when its caller lets go of it.
        let cancellable = start(
            { [weak transfer] in transfer?.report($0) }, { [weak transfer] in transfer?.finish($0) }, transfer.dropped)
        transfer.call.withLock { $0 = cancellable }
        return transfer
    }

    /// The result once the transfer has ended, `nil` before.
    public var result: Result<Value, any Error>? { outcome.result }

    /// Waits for the transfer's value; cancelling the waiting `Task` cancels the transfer.
    /// - Throws: the transfer's error; ``FetchError/Code-swift.enum/cancelled`` when cancelled.
    public var value: Value {
        get async throws { try await outcome.value(cancelling: self) }
    }

    /// Cancels the transfer: it ends with ``FetchError/Code-swift.enum/cancelled`` unless already over.
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
    /// The progress reports of a transfer, in order, ending with it; holds the transfer.
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
    /// Cancels the download and keeps what it received for a resume; see ``DownloadHandle/cancelKeepingPartial()``.
    public func cancelKeepingPartial() {
        guard let download = call.withLock({ $0 }) as? DownloadHandle else { return cancel() }
        download.cancelKeepingPartial()
    }
}
