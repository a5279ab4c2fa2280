import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives URLSession's callbacks for every task of one ``Session`` and routes them to
/// the task's ``TaskState``.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `states` and `transfers` are lock-guarded tables; the delegate has no other mutable state.
    private let states = Locked<[Int: TaskState]>([:])
    /// Transfers (downloads to files, uploads with progress), next to their task states;
    /// see SessionDelegate+Transfers.swift.
    let transfers = Locked<[Int: TransferState]>([:])

    func register(_ task: URLSessionTask, _ state: TaskState) {
        states.withLock { $0[task.taskIdentifier] = state }
    }

    func state(for task: URLSessionTask) -> TaskState? {
        states.withLock { $0[task.taskIdentifier] }
    }

    /// Forgets `task`, whose request goes on in another task (a redirect sent again).
    func unregister(_ task: URLSessionTask) {
        states.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
        transfers.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
    }

    var allStates: [TaskState] { states.withLock { Array($0.values) } }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if transfer(for: dataTask)?.receive(response) == true { return completionHandler(.allow) }
        guard let state = state(for: dataTask) else { return completionHandler(.allow) }
        if !state.receive(response) { tooLarge(state, announced: response.expectedContentLength) }
        // Answering `.cancel` is ignored on Linux; `tooLarge` cancels the task instead.
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if transfer(for: dataTask)?.receive(data) == true { return }
        guard let state = state(for: dataTask) else { return }
        if !state.append(data) { tooLarge(state, announced: nil) }
    }

    private func tooLarge(_ state: TaskState, announced: Int64?) {
        let size = announced.map { "\($0) bytes" } ?? "more than \(state.maximumBodySize) bytes"
        state.failFromDelegate(state.error(
            .bodyTooLarge, "the response body (\(size)) is larger than the limit of \(state.maximumBodySize) bytes"
        ))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let state = state(for: task) else { return completionHandler(nil) }
        // A finished request's task is being cancelled: answering now could cross that
        // cancel and crash FoundationNetworking, so the decision is dropped (see `beginRedirect`).
        guard state.beginRedirect() else { return }
        let step = state.redirect(response)
        switch step {
        case .follow(let next):
            completionHandler(next)
        case .resend(let next):
            // URLSession would send this hop without its body: send it as a new task, then
            // end this one quietly (its callbacks no longer reach the state).
            DeliveryQueue.unblocked { state.runningOwner?.send(next, for: state) }
            unregister(task)
            completionHandler(nil)
        case .stop, .fail:
            completionHandler(nil)
        }
        // Only now may the task be cancelled (see `TaskState.beginRedirect()`).
        if let cancelled = state.endRedirect() { DeliveryQueue.unblocked { cancelled.cancel() } }
        if case .fail(let error) = step { state.failFromDelegate(error) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = states.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            state.finish(.failure(FetchError.mapping(error, method: state.method, url: state.url)))
        } else {
            state.complete(with: task.response)
        }
    }
}
