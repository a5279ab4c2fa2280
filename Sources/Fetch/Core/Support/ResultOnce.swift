/// A result that is set once and handed to everyone who waits for it: the package's one bridge from a completion
/// callback to its waiters, callbacks or async tasks alike. The first ``finish(_:)`` wins, so a callback that fires
/// twice never resumes a continuation twice. Every waiter gets the result exactly once, outside the lock, on the thread
/// that finishes (or, for one that comes after, the thread that waits).
package final class ResultOnce<Value: Sendable>: Sendable {
    /// What a waiter is called with.
    package typealias Waiter = @Sendable (Result<Value, any Error>) -> Void

    private struct State: Sendable {
        var result: Result<Value, any Error>?
        var waiters: [Waiter] = []
    }

    private let state = Locked(State())

    /// Makes one with no result yet.
    package init() {}

    /// The result once it is set, `nil` before.
    package var result: Result<Value, any Error>? { state.withLock { $0.result } }

    /// Sets the result and hands it to every waiter, the first time only; returns whether this call set it.
    @discardableResult
    package func finish(_ result: Result<Value, any Error>) -> Bool {
        let waiters: [Waiter]? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter(result) }
        return true
    }

    /// Calls `waiter` with the result once: now, if it is set, or when it is.
    package func whenFinished(_ waiter: @escaping Waiter) {
        let ready: Result<Value, any Error>? = state.withLock { state in
            if state.result == nil { state.waiters.append(waiter) }
            return state.result
        }
        if let ready { waiter(ready) }
    }

    /// Waits for the result.
    /// - Throws: the error it was set with.
    package var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                whenFinished { continuation.resume(with: $0) }
            }
        }
    }

    /// Waits for the result; cancelling the waiting `Task` cancels `work`, which should finish this as cancelled.
    /// - Throws: the error it was set with.
    package func value(cancelling work: any Cancellable) async throws -> Value {
        try await withTaskCancellationHandler {
            try await value
        } onCancel: {
            work.cancel()
        }
    }
}
