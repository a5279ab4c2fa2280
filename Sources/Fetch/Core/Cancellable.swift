/// Something in progress that can be cancelled: a request, a retry wait, a scheduled job.
///
/// Cancelling is idempotent and safe from any thread. A cancelled request still calls its
/// completion once, with ``FetchError/Code-swift.enum/cancelled``, unless it had already
/// finished.
public protocol Cancellable: Sendable {
    /// Stops the work if it is still running.
    func cancel()
}

/// A ``Cancellable`` that runs a closure the first time it is cancelled.
public final class CancellationHandle: Cancellable, @unchecked Sendable {
    // `lock` guards `action` and `isCancelledStorage`.
    private let lock = Locked()
    private var action: (@Sendable () -> Void)?
    private var isCancelledStorage = false

    /// Makes a handle that calls `action` once, on the first `cancel()`.
    public init(_ action: (@Sendable () -> Void)? = nil) { self.action = action }

    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { lock.withLock { isCancelledStorage } }

    /// Replaces the action; if the handle was already cancelled, runs the new action now.
    public func setAction(_ newAction: @escaping @Sendable () -> Void) {
        let runNow: Bool = lock.withLock {
            if isCancelledStorage { return true }
            action = newAction
            return false
        }
        if runNow { newAction() }
    }

    /// Drops the action without running it, once the work it would stop has ended: the
    /// action may hold that work's state, which may hold this handle.
    func release() {
        lock.withLock { action = nil }
    }

    /// Runs the action the first time; does nothing afterwards.
    public func cancel() {
        let toRun: (@Sendable () -> Void)? = lock.withLock {
            if isCancelledStorage { return nil }
            isCancelledStorage = true
            defer { action = nil }
            return action
        }
        toRun?()
    }
}
