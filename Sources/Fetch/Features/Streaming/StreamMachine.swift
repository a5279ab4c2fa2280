/// The life of a streamed body as a value: its ``Phase``, the ``Event``s that move it, the ``Effect``s to carry out.
/// No lock, no I/O: ``StreamSink`` carries out the effects after unlocking. A `Waiter` takes one chunk at a time.
/// The end is a phase, not a `ResultOnce` like the head: it must reach the reader after the last chunk kept.
struct StreamMachine<Waiter: Sendable>: Sendable {
    /// Checks, and may change, a head before the reader gets it; throws to refuse it.
    typealias HeadCheck = @Sendable (inout Response) throws -> Void

    enum Phase: Sendable {
        case awaitingHead
        case streaming
        /// The call ended, or the sink ended it: the reader takes what is kept, then this end.
        case ending(Result<Response, any Error>)
        case ended
    }

    enum Event: Sendable {
        case refused(any Error)
        /// The head, checked, without its body.
        case opened(Response)
        case received(Data)
        /// The spill file could not be made or written: the stream ends with this error.
        case spillFailed(any Error)
        /// A read of the spill file failed (`nil` when the file was lost): the waiter takes again.
        case readFailed((any Error)?, for: Waiter)
        case finished(Result<Response, any Error>)
        case cancelled
        case take(Waiter)
    }

    /// What the owner must do, in the order given.
    enum Effect: Sendable {
        case head(Result<Response, any Error>)
        /// Answers a reader's wait: the chunk, `nil` at the end, or the error.
        case hand(Waiter, Result<Data?, any Error>)
        case spill(Data, at: Int)
        /// Reads the spill file for the waiter, emptied after if `thenEmpty`; ``Event/readFailed(_:for:)`` on failure.
        case read(at: Int, count: Int, thenEmpty: Bool, for: Waiter)
        case dropSpill
        case stopCall
        /// Lets go of the call's handle: the call has ended.
        case releaseCall
    }

    private(set) var phase = Phase.awaitingHead
    private(set) var head: Response?
    /// Whether the reader stopped: what is kept was dropped, and what arrives is ignored.
    private(set) var stoppedByReader = false
    /// Body bytes taken from the performer, and those handed to the reader.
    private(set) var received = 0
    private(set) var read = 0
    private(set) var outcome: Result<Response, any Error>?
    let acceptsAnyStatus: Bool
    private(set) var buffer: StreamBuffer
    private var waiter: Waiter?
    /// Why a check refused the last head offered, until the next one: the call's error.
    private var refusal: (any Error)?
    private var checks: [(number: Int, check: HeadCheck)] = []
    private var lastCheck = 0

    init(buffer: StreamBuffer, acceptsAnyStatus: Bool) {
        self.buffer = buffer
        self.acceptsAnyStatus = acceptsAnyStatus
    }

    var hasEnded: Bool {
        if case .ended = phase { return true }
        return stoppedByReader
    }

    mutating func addCheck(_ check: @escaping HeadCheck) -> Int {
        lastCheck += 1
        checks.append((lastCheck, check))
        return lastCheck
    }

    mutating func removeCheck(_ number: Int) {
        checks.removeAll { $0.number == number }
    }

    /// A head is offered: the checks it must pass before ``Event/opened(_:)`` (nearest the
    /// performer first; ``Event/refused(_:)`` when one throws), none when no head is taken now.
    mutating func offer() -> [HeadCheck] {
        guard !stoppedByReader, case .awaitingHead = phase else { return [] }
        refusal = nil
        return checks.reversed().map(\.check)
    }

    mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .refused(let error):
            refusal = error
            return []
        case .opened(let offered):
            guard !stoppedByReader, case .awaitingHead = phase, offered.isSuccess || acceptsAnyStatus else { return [] }
            (phase, head) = (.streaming, offered)
            return [.head(.success(offered))]
        case .received(let data):
            guard !stoppedByReader, case .streaming = phase, !data.isEmpty else { return [] }
            if let waiting = waiter {
                waiter = nil
                received += data.count
                read += data.count
                return [.hand(waiting, .success(data))]
            }
            let arrival = buffer.append(data)
            if case .overflow = arrival {
                let memory = ByteCountFormatter.string(fromByteCount: Int64(buffer.memoryLimit), countStyle: .binary)
                let file = ByteCountFormatter.string(fromByteCount: Int64(buffer.spillLimit), countStyle: .binary)
                let reason =
                    "the stream's reader fell behind by more than its buffer (\(memory)) and spill file "
                    + "(\(file)) keep; the bytes kept were delivered, the rest was not read"
                phase = .ending(.failure(FetchError(.bodyTooLarge, reason: reason, response: head)))
                return [.stopCall] + wake()
            }
            received += data.count
            guard case .write(let bytes, let offset) = arrival else { return [] }
            return [.spill(bytes, at: offset)]
        case .spillFailed(let error):
            guard !stoppedByReader, case .streaming = phase else { return [] }
            phase = .ending(.failure(error))
            return [.stopCall] + wake()
        case .readFailed(let error, let waiter):
            buffer.removeAll()
            guard let error, !hasEnded else { return take(waiter) }
            phase = .ending(.failure(error))
            return [.stopCall] + take(waiter)
        case .finished(let result): return finish(result)
        case .cancelled:
            guard !stoppedByReader else { return [] }
            stoppedByReader = true
            buffer.removeAll()
            return [.dropSpill, .stopCall] + wake() + [.head(.failure(FetchError.cancelled()))]
        case .take(let taker): return take(taker)
        }
    }

    private mutating func finish(_ result: Result<Response, any Error>) -> [Effect] {
        switch phase {
        case .ending, .ended: return [.releaseCall]
        case .awaitingHead, .streaming: break
        }
        var outcome = result
        if case .success(var response) = result {
            if head != nil {
                response.isStreamed = true
                outcome = .success(response)
            } else if let refusal {
                outcome = .failure(refusal)
            } else if response.isSuccess || acceptsAnyStatus {
                var bodiless = response
                (bodiless.body, bodiless.isStreamed) = (Data(), true)
                head = bodiless
                // Held in memory already: whatever its size, it stays there.
                if !stoppedByReader, !response.body.isEmpty {
                    received += response.body.count
                    _ = buffer.append(response.body)
                }
                outcome = .success(bodiless)
            } else {
                outcome = .failure(FetchError.httpStatus(response))
            }
        }
        phase = .ending(outcome)
        return [.releaseCall, .head(head.map { .success($0) } ?? outcome)] + wake()
    }

    private mutating func wake() -> [Effect] {
        guard let waiting = waiter else { return [] }
        waiter = nil
        return take(waiting)
    }

    /// The next chunk kept (handed over or read from the spill file), the end, or nothing yet (then it waits).
    private mutating func take(_ taker: Waiter) -> [Effect] {
        if stoppedByReader {
            if case .ended = phase { return [.hand(taker, .success(nil))] }
            return [.hand(taker, .failure(FetchError.cancelled()))]
        }
        switch buffer.next() {
        case .chunk(let chunk):
            read += chunk.count
            return [.hand(taker, .success(chunk))]
        case .read(let offset, let count, let thenEmpty):
            read += count
            return [.read(at: offset, count: count, thenEmpty: thenEmpty, for: taker)]
        case .none:
            break
        }
        switch phase {
        case .ending(let end):
            (phase, outcome) = (.ended, end)
            return [.hand(taker, end.map { _ in nil })]
        case .ended:
            return [.hand(taker, .success(nil))]
        case .awaitingHead, .streaming:
            waiter = taker
            return []
        }
    }
}
