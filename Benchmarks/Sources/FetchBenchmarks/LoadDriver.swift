import Foundation

/// Keeps a fixed number of requests in flight until a count is done: each completion
/// starts the next request, as a caller with a work queue would.
final class LoadDriver: @unchecked Sendable {
    // `lock` guards every `var`; `client`, `count` and `finishedAll` are immutable.
    private let lock = NSLock()
    private let client: any LoadClient
    private let count: Int
    private let finishedAll = DispatchSemaphore(value: 0)
    private var issued = 0
    private var finished = 0
    private var failures = 0
    private var firstFailure: String?

    private init(client: any LoadClient, count: Int) {
        self.client = client
        self.count = count
    }

    /// Sends `count` requests through `client`, `inFlight` at a time, and waits for all.
    /// - Returns: how many failed, and the first failure.
    static func run(_ client: any LoadClient, count: Int, inFlight: Int) -> (failures: Int, first: String?) {
        guard count > 0 else { return (0, nil) }
        let driver = LoadDriver(client: client, count: count)
        let starting = min(inFlight, count)
        driver.lock.withLock { driver.issued = starting }
        for _ in 0..<starting { driver.sendOne() }
        driver.finishedAll.wait()
        return driver.lock.withLock { (driver.failures, driver.firstFailure) }
    }

    private func sendOne() {
        client.send { [self] failure in complete(failure) }
    }

    private func complete(_ failure: String?) {
        let (next, done): (Bool, Bool) = lock.withLock {
            finished += 1
            if let failure {
                failures += 1
                if firstFailure == nil { firstFailure = failure }
            }
            let next = issued < count
            if next { issued += 1 }
            return (next, finished == count)
        }
        if next { sendOne() }
        if done { finishedAll.signal() }
    }
}
