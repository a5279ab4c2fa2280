/// A ``Session``'s own thread that makes, resumes and cancels URLSession tasks, in order, while other requests run.
///
/// In FoundationNetworking 6.3 these wait (`workQueue.sync`) for URLSession's one work queue, shared by every session
/// and kept busy by a fast transfer. Elsewhere the wait would tie up a caller's thread, stop the delegate queue
/// draining, or come late on a Dispatch queue while transfers keep the cores busy.
final class ControlThread: @unchecked Sendable {
    // `condition` guards `jobs`, `started` and `stopped`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var started = false
    private var stopped = false

    func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let start = !started
        started = true
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "Fetch.Session.control"
            thread.start()
        }
    }

    /// Lets the thread end once the jobs queued so far have run; a job queued after it ended starts another.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            let batch = jobs
            jobs = []
            if batch.isEmpty { started = false }
            condition.unlock()
            if batch.isEmpty { return }
            for job in batch { job() }
        }
    }
}
