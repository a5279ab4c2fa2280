/// Something in progress that can be cancelled: a request, a retry wait, a scheduled job.
/// Cancelling is idempotent and safe from any thread; a cancelled request still calls its
/// completion once, with ``FetchError/Code-swift.enum/cancelled``, unless it had finished.
public protocol Cancellable: Sendable {
    /// Stops the work if it is still running.
    func cancel()
}

/// A ``Cancellable`` that runs a closure the first time it is cancelled; without one, a handle with nothing to stop.
public final class CancellationHandle: Cancellable, Sendable {
    private struct State {
        var action: (@Sendable () -> Void)?
        var isCancelled = false
    }

    private let state: Locked<State>

    /// Makes a handle that calls `action` once, on the first `cancel()`.
    public init(_ action: (@Sendable () -> Void)? = nil) { state = Locked(State(action: action)) }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Replaces the action; if the handle was already cancelled, runs the new action now.
    public func setAction(_ newAction: @escaping @Sendable () -> Void) {
        let runNow: Bool = state.withLock { state in
            if state.isCancelled { return true }
            state.action = newAction
            return false
        }
        if runNow { newAction() }
    }

    /// Drops the action unrun once its work has ended: it may hold that work's state, which may hold this handle.
    func release() {
        state.withLock { $0.action = nil }
    }

    /// Runs the action the first time; does nothing afterwards.
    public func cancel() {
        let toRun: (@Sendable () -> Void)? = state.withLock { state in
            if state.isCancelled { return nil }
            state.isCancelled = true
            defer { state.action = nil }
            return state.action
        }
        toRun?()
    }
}

/// The handle of a call that completed before `perform` returned (a cache hit, work an immediate
/// scheduler ran): nothing to cancel, and no allocation, unlike a ``CancellationHandle``.
public struct NothingToCancel: Cancellable {
    /// Makes the handle.
    public init() {}

    /// Does nothing: the work has completed.
    public func cancel() {}
}
