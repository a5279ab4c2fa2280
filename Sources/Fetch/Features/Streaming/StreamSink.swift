/// Where a streamed call's body goes as it arrives: the bridge between the performer at the
/// bottom of a stack and the code reading the stream at the top.
///
/// The sink never makes the performer wait: unread bytes stay in memory up to ``bufferSize``,
/// then in an unlinked temporary file up to ``spillLimit``. A reader further behind gets every
/// kept byte, then ``FetchError/Code-swift.enum/bodyTooLarge``, and the call is cancelled.
public final class StreamSink: Sendable {
    /// The default ``bufferSize``: 2 MiB.
    public static let defaultBufferSize = 2 << 20
    /// The default ``spillLimit``: 256 MiB.
    public static let defaultSpillLimit = 256 << 20

    /// How many unread bytes the sink holds in memory before it keeps the rest in a file.
    public let bufferSize: Int
    /// How many unread bytes past ``bufferSize`` the sink keeps in a temporary file; 0 for none.
    public let spillLimit: Int
    /// Whether a head with a status other than 2xx is delivered like any other; when not,
    /// the call fails with ``FetchError/Code-swift.enum/httpStatus``.
    public let acceptsAnyStatus: Bool
    private let spillDirectory: String
    let machine: Locked<Machine>
    /// Made when the first bytes spill (`nil` once it failed or was dropped). This lock is taken before the machine's
    /// (a leaf) for every event, so the file matches the machine's offsets.
    private let io = Locked<SpillFile?>(nil)
    private let head = ResultOnce<Response>()
    /// Where a push reader's callbacks run (see ``deliver(on:)``); `nil` for the calling thread.
    let queue = Locked<DispatchQueue?>(nil)
    private let stopCall = CancellationHandle()

    typealias Machine = StreamMachine<@Sendable (Result<Data?, any Error>) -> Void>

    enum Reader: Sendable {
        case pull
        /// Callbacks: the head, each chunk, then the completion once.
        case push(
            head: (@Sendable (Response) -> Void)?, chunk: @Sendable (Data) -> Void,
            completion: @Sendable (Result<Response, any Error>) -> Void)
    }

    init(
        bufferSize: Int, spillLimit: Int, acceptsAnyStatus: Bool, reader: Reader,
        spillDirectory: String = NSTemporaryDirectory()
    ) {
        let buffer = StreamBuffer(memoryLimit: bufferSize, spillLimit: spillLimit)
        (self.bufferSize, self.spillLimit) = (buffer.memoryLimit, buffer.spillLimit)
        self.spillDirectory = spillDirectory
        self.acceptsAnyStatus = acceptsAnyStatus
        machine = Locked(Machine(buffer: buffer, acceptsAnyStatus: acceptsAnyStatus))
        guard case .push(let onHead, let onChunk, let completion) = reader else { return }
        head.whenFinished { result in
            guard let onHead, case .success(let response) = result else { return }
            // Not once the reader has stopped: a cancel before the head's turn on the queue.
            self.onQueue { if !self.machine.withLock({ $0.stoppedByReader }) { onHead(response) } }
        }
        pushNext(onChunk, completion)
    }

    /// Whether a head has been accepted: the reader has the response, so retry and refresh
    /// layers deliver a later failure as it is rather than sending the request again.
    public var hasStarted: Bool { machine.withLock { $0.head != nil } }

    /// Takes the head of a response (its body is ignored), which layers check here; a head they refuse goes nowhere.
    /// - Returns: whether to hand the body to ``receive(_:)`` (a 2xx status, or any when the
    ///   caller accepts any); otherwise the call fails with ``FetchError/Code-swift.enum/httpStatus``.
    @discardableResult
    public func open(_ response: Response) -> Bool {
        var bodiless = response
        bodiless.body = Data()
        bodiless.isStreamed = true
        let checks = machine.withLock { $0.offer() }
        do {
            for check in checks where response.isSuccess || acceptsAnyStatus { try check(&bodiless) }
        } catch {
            machine.withLock { _ = $0.handle(.refused(error)) }
            return false
        }
        return step(.opened(bodiless))
    }

    /// Takes the next piece of the body, never waiting for the reader; ignored once the reader or the stream ended.
    public func receive(_ data: Data) {
        step(.received(data))
    }

    /// Adds a check for every head offered from now on; returns the number that removes it.
    func addHeadCheck(_ check: @escaping Machine.HeadCheck) -> Int {
        machine.withLock { $0.addCheck(check) }
    }

    func removeHeadCheck(_ number: Int) {
        machine.withLock { $0.removeCheck(number) }
    }

    /// Has callbacks run on a serial queue that targets `target`, not on the thread that calls
    /// ``receive(_:)`` (for ``Session``, URLSession's delegate queue). A no-op after the first call.
    func deliver(on target: DispatchQueue) {
        queue.withLock { $0 = $0 ?? DispatchQueue(label: "Fetch.stream", target: target) }
    }

    /// Ends the stream with the call's result, once; a response not streamed becomes the head and one chunk.
    func finish(_ result: Result<Response, any Error>) {
        step(.finished(result))
    }

    /// Stops the stream for its reader: drops what is unread, ignores what still arrives and cancels the call.
    func cancel() {
        step(.cancelled)
    }

    func cancelling(_ call: any Cancellable) {
        stopCall.setAction { call.cancel() }
    }

    /// Waits for the head, or throws the call's error (`httpStatus` for a status not accepted); cancelling the waiting
    /// `Task` cancels the whole stream.
    func response() async throws -> Response {
        try await head.value(cancelling: CancellationHandle { self.cancel() })
    }

    /// The next chunk, `nil` at the end, or the stream's error once (`cancelled` when stopped); cancelling the waiting
    /// `Task` cancels the whole stream.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                step(.take { continuation.resume(with: $0) })
            }
        } onCancel: {
            cancel()
        }
    }

    /// Whether the reader has seen the end, or stopped: leaving it then cancels nothing.
    var hasEnded: Bool { machine.withLock { $0.hasEnded } }

    /// Whether the machine did anything; the spill file's effects run under the `io` lock, the rest unlocked.
    @discardableResult
    private func step(_ event: Machine.Event) -> Bool {
        let effects = io.withLock { spill in
            var pending = machine.withLock { $0.handle(event) }
            var out: [Machine.Effect] = []
            while !pending.isEmpty {
                let effect = pending.removeFirst()
                switch effect {
                case .spill(let bytes, let offset):
                    do {
                        let file = try spill ?? SpillFile(in: spillDirectory)
                        spill = file
                        try file.write(bytes, at: offset)
                    } catch {
                        spill = nil
                        pending += machine.withLock { $0.handle(.spillFailed(error)) }
                    }
                case .read(let offset, let count, let thenEmpty, let waiter):
                    // After a failed write none of the file is read: the stream ended with its error.
                    guard let file = spill else {
                        pending += machine.withLock { $0.handle(.readFailed(nil, for: waiter)) }
                        continue
                    }
                    do {
                        out.append(.hand(waiter, .success(try file.read(at: offset, count: count))))
                        if thenEmpty { file.empty() }
                    } catch {
                        spill = nil
                        pending += machine.withLock { $0.handle(.readFailed(error, for: waiter)) }
                    }
                case .dropSpill:
                    spill = nil
                default:
                    out.append(effect)
                }
            }
            return out
        }
        for effect in effects {
            switch effect {
            case .head(let result): head.finish(result)
            case .hand(let waiter, let result): waiter(result)
            case .stopCall: stopCall.cancel()
            case .releaseCall:
                // Nothing is left to cancel, and the handle holds the call's state, whose completion holds this sink.
                stopCall.release()
            case .spill, .read, .dropSpill: break
            }
        }
        return !effects.isEmpty
    }

    /// Asks for the push reader's next chunk, answered on its queue; none is delivered after the reader stopped.
    private func pushNext(
        _ onChunk: @escaping @Sendable (Data) -> Void,
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        step(
            .take { result in
                self.onQueue {
                    switch result {
                    case .success(let chunk?):
                        if !self.hasEnded { onChunk(chunk) }
                        self.pushNext(onChunk, completion)
                    case .success(nil):
                        completion(self.machine.withLock { $0.outcome } ?? .failure(FetchError.cancelled()))
                    case .failure(let error):
                        completion(.failure(error))
                    }
                }
            })
    }

    private func onQueue(_ work: @escaping @Sendable () -> Void) {
        if let queue = queue.withLock({ $0 }) { queue.async(execute: work) } else { work() }
    }
}
