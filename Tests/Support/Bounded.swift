import Foundation

/// How long a test waits for one thing (a call, a Task, a stream, a child process) before it
/// fails naming that thing, inside the 2 minutes CI gives one test: a Task that a test
/// starts waited over 10 s for a thread of the concurrency pool at a load average of 20,
/// behind the run's queued tests.
public let standardBound: Duration = .seconds(60)

/// What a bounded wait throws when what it waited for did not finish in time.
public struct DidNotFinish: Error, CustomStringConvertible {
    /// What the test waited for, in the test's own words.
    public let what: String
    /// How long it waited.
    public let bound: Duration
    /// Where the test waited: `file:line`.
    public let location: String

    public var description: String { "\(what) did not finish within \(bound) (\(location))" }
}

/// Runs `operation` and returns what it returns, or throws ``DidNotFinish`` naming `what`
/// when it has not finished within `bound`.
///
/// The operation runs in a task of its own, which is cancelled at the bound and then left
/// behind: a wait that ignores cancellation (a continuation nobody resumes, a held call nobody
/// answers) still ends the test, with a failure that says what it was waiting for.
public func within<Value: Sendable>(
    _ bound: Duration, _ what: String, file: StaticString = #filePath, line: UInt = #line,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let outcome = Outcome<Value>()
    let late = DidNotFinish(what: what, bound: bound, location: "\(file):\(line)")
    // (at high priority: a Task of default priority waits behind every test the run has queued)
    let work = Task(priority: .high) {
        do { outcome.end(.success(try await operation())) } catch { outcome.end(.failure(error)) }
    }
    let timer = Task(priority: .high) {
        guard (try? await Task.sleep(for: bound)) != nil else { return }
        outcome.end(.failure(late))
        work.cancel()
    }
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { outcome.wait($0) }
    } onCancel: {
        work.cancel()
    }
}

/// ``within(_:_:file:line:_:)`` with the ``standardBound``.
public func within<Value: Sendable>(
    _ what: String, file: StaticString = #filePath, line: UInt = #line,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await within(standardBound, what, file: file, line: line, operation)
}

extension Task {
    /// The task's value, or ``DidNotFinish`` naming `what` when it has none within `bound`
    /// (the task is then cancelled).
    public func value(
        within bound: Duration = standardBound, _ what: String = "the task", file: StaticString = #filePath,
        line: UInt = #line
    ) async throws -> Success {
        try await TestSupport.within(bound, what, file: file, line: line) { try await self.value }
    }
}

/// The one result of a bounded wait: the first of the operation's end and the bound. It
/// keeps a result only until the waiter takes it, so a value the test lets go is gone.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
    private enum State {
        case waiting(CheckedContinuation<Value, any Error>?)
        case ready(Result<Value, any Error>)
        case taken
    }
    // `lock` guards `state`.
    private let lock = NSLock()
    private var state = State.waiting(nil)

    /// Resumes `continuation` with the result: now if there is one, else when it comes.
    func wait(_ continuation: CheckedContinuation<Value, any Error>) {
        let ready = lock.withLock { () -> Result<Value, any Error>? in
            guard case .ready(let result) = state else {
                state = .waiting(continuation)
                return nil
            }
            state = .taken
            return result
        }
        if let ready { continuation.resume(with: ready) }
    }

    /// Ends the wait with `result`, unless it has ended already.
    func end(_ result: Result<Value, any Error>) {
        let waiting = lock.withLock { () -> CheckedContinuation<Value, any Error>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = continuation == nil ? .ready(result) : .taken
            return continuation
        }
        waiting?.resume(with: result)
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Every element until the sequence ends, or ``DidNotFinish`` naming `what` when it has
    /// not ended within `bound`.
    public func collected(
        within bound: Duration = standardBound, _ what: String = "the sequence", file: StaticString = #filePath,
        line: UInt = #line
    ) async throws -> [Element] {
        try await within(bound, what, file: file, line: line) {
            var elements: [Element] = []
            for try await element in self { elements.append(element) }
            return elements
        }
    }

    /// The sequence's next element (`nil` when it has ended), or ``DidNotFinish`` naming
    /// `what` when none came within `bound`.
    public func next(
        within bound: Duration = standardBound, _ what: String = "the sequence's next element",
        file: StaticString = #filePath, line: UInt = #line
    ) async throws -> Element? {
        try await within(bound, what, file: file, line: line) { try await self.first { _ in true } }
    }
}

extension DispatchSemaphore {
    /// Waits for a signal, blocking the thread, or throws ``DidNotFinish`` naming `what` when
    /// none came within `bound`.
    public func wait(
        within bound: Duration = standardBound, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (seconds, attoseconds) = bound.components
        guard wait(timeout: .now() + Double(seconds) + Double(attoseconds) / 1e18) == .success else {
            throw DidNotFinish(what: what, bound: bound, location: "\(file):\(line)")
        }
    }
}
