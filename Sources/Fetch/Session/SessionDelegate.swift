import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives URLSession's callbacks for every task of one ``Session`` and routes them to
/// the task's ``TaskState``, and a download's bytes straight to its ``TransferState``.
///
/// One table lookup per callback. A data chunk then takes one more lock: the task state's,
/// or the transfer's for a download.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `states` is a lock-guarded table (a leaf lock, see TaskState.swift), the delegate's
    // only mutable state.
    private let states = Locked<[Int: TaskState]>([:])

    /// Routes `task`'s callbacks to `state`.
    func register(_ task: URLSessionTask, _ state: TaskState) {
        states.withLock { $0[task.taskIdentifier] = state }
    }

    /// Forgets `task`: it never started, or its request goes on in another task (a redirect
    /// sent again).
    func unregister(_ task: URLSessionTask) {
        states.withLock { _ = $0.removeValue(forKey: task.taskIdentifier) }
    }

    /// The requests whose tasks have not ended.
    var allStates: [TaskState] { states.withLock { Array($0.values) } }

    private func state(for task: URLSessionTask) -> TaskState? {
        states.withLock { $0[task.taskIdentifier] }
    }

    /// The transfer of `state` when its body goes to a file rather than into memory.
    private func download(of state: TaskState) -> TransferState? {
        guard let transfer = state.transfer, transfer.isDownload else { return nil }
        return transfer
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let state = state(for: dataTask) {
            if let download = download(of: state) {
                if let error = download.receive(response) { state.fail(error, from: .mayWait) }
            } else {
                state.receive(response, from: dataTask)
            }
        }
        // Answering `.cancel` is ignored on Linux: a request that fails here cancels its task.
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let state = state(for: dataTask) else { return }
        if let download = download(of: state) {
            if let error = download.receive(data) { state.fail(error, from: .mayWait) }
        } else {
            state.receive(data, from: dataTask)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        guard let state = state(for: task) else { return completionHandler(nil) }
        state.redirect(task, response, answer: completionHandler)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = states.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.end(task, error: error)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        state(for: task)?.transfer?.sentBody(total: totalBytesSent, expectedTotal: totalBytesExpectedToSend)
    }
}
