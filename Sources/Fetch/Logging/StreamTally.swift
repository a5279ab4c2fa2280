/// Where a streamed call stands when its log line is written: the head its reader got, how
/// many body bytes arrived and were read, and whether the reader stopped it.
struct StreamTally {
    /// The head the reader got (bodiless); `nil` when the stream failed or stopped before one.
    var head: Response?
    /// Body bytes the stream took from the performer.
    var received: Int
    /// Body bytes handed to the reader.
    var read: Int
    /// Whether the reader stopped the stream (left its loop, cancelled it or let it go).
    var stoppedByReader: Bool
    /// Whether the reader takes a head of any status (otherwise only 2xx).
    var acceptsAnyStatus: Bool
    /// What the stream's handle said when it was dropped (see ``DroppedHandle``), if it was.
    var droppedNote: String? = nil

    /// The head and the outcome a log line gives for a stream that ended with `result`, once
    /// its reader has the head: how it ended and how many bytes; `describe` writes an error.
    /// `nil` when the reader gets no head (the call failed first, or its status is refused).
    func outcome(
        of result: Result<Response, any Error>, describe: (any Error) -> String
    ) -> (head: Response, outcome: String)? {
        switch result {
        case .success(let response):
            // A performer that does not stream hands the head and the whole body over at the end.
            guard let head = head ?? (response.isSuccess || acceptsAnyStatus ? response : nil) else { return nil }
            return (head, "\(head.status), stream ended after \(bytes(received + response.body.count))")
        case .failure where droppedNote != nil:
            guard let head, let droppedNote else { return nil }
            return (head, "\(head.status), stream cancelled: handle dropped: \(droppedNote) (\(received) received)")
        case .failure where stoppedByReader:
            guard let head else { return nil }
            return (
                head, "\(head.status), stream stopped by its reader after \(bytes(read)) read (\(received) received)"
            )
        case .failure(let error):
            guard let head else { return nil }
            return (head, "\(head.status), stream failed after \(bytes(received)): \(describe(error))")
        }
    }

    private func bytes(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }
}
