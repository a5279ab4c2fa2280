import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// The workload through URLSession with a data delegate, the way `Session` receives
/// responses, but with none of Fetch's bookkeeping: to see what the delegate route
/// itself costs on Linux (explore only).
struct RawDelegateClient: LoadClient {
    let session: URLSession
    let delegate: Collector
    let request: URLRequest
    let expectedSize: Int
    let hop: DispatchQueue?

    init(url: URL, method: String, body: Data?, expectedSize: Int, configuration: Session.Configuration, hop: Bool) {
        delegate = Collector()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: .mirroring(configuration), delegate: delegate, delegateQueue: queue)
        request = URLRequest(raw: url, method: method, body: body, configuration: configuration)
        self.expectedSize = expectedSize
        self.hop = hop ? DispatchQueue(label: "raw-delegate-hop", attributes: .concurrent) : nil
    }

    func send(_ done: @escaping @Sendable (String?) -> Void) {
        let task = session.dataTask(with: request)
        let expectedSize = self.expectedSize
        let hop = self.hop
        delegate.start(task) { failure, size, status in
            let outcome = failure ?? check(status: status, size: size, expectedSize: expectedSize)
            if let hop { hop.async { done(outcome) } } else { done(outcome) }
        }
        task.resume()
    }

    /// Collects each task's body and calls its handler when the task completes.
    final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        typealias Handler = @Sendable (String?, Int, Int) -> Void
        // `lock` guards `tasks`.
        private let lock = NSLock()
        private var tasks: [Int: (handler: Handler, body: Data)] = [:]

        func start(_ task: URLSessionTask, _ handler: @escaping Handler) {
            lock.withLock { tasks[task.taskIdentifier] = (handler, Data()) }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            lock.withLock { tasks[dataTask.taskIdentifier]?.body.append(data) }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let entry = lock.withLock({ tasks.removeValue(forKey: task.taskIdentifier) }) else { return }
            let status = (task.response as? HTTPURLResponse)?.statusCode ?? 0
            entry.handler(error.map { "\($0)" }, entry.body.count, status)
        }
    }
}
