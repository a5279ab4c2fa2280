/// Whether the one value that could receive a call's result (a ``ResponseStream``, a ``Transfer``) was let go of, and
/// after how much, so the cancelled call's log line says why. Set by the handle's `deinit` before it cancels.
final class DroppedHandle: Sendable {
    private let state = Locked<String?>(nil)

    /// What was dropped after how much (`its Transfer was dropped after 1024 bytes`); `nil` while the handle is held.
    var note: String? { state.withLock { $0 } }

    func record(_ note: String) {
        state.withLock { if $0 == nil { $0 = note } }
    }

    /// `result` as a log line tells it: a cancellation because the handle was dropped says so.
    func explaining(_ result: Result<Response, any Error>) -> Result<Response, any Error> {
        guard case .failure(var error as FetchError) = result, error.code == .cancelled, let note else { return result }
        error.reason = "handle dropped: \(note)"
        return .failure(error)
    }
}

extension RequestOptions {
    private enum DroppedHandleKey: RequestOptionKey { static let defaultValue: DroppedHandle? = nil }

    /// Where the handle of a call that alone receives its result records that it was dropped.
    var droppedHandle: DroppedHandle? {
        get { self[DroppedHandleKey.self] }
        set { self[DroppedHandleKey.self] = newValue }
    }
}
