/// Where a ``Session`` calls into URLSession tasks (makes, resumes and cancels them) while
/// other requests run: one thread of its own, running jobs one at a time in the order they
/// came.
///
/// In FoundationNetworking 6.3 `cancel()`, `resume()` and making a task wait
/// (`workQueue.sync`) for URLSession's one work queue, which every session in the process
/// shares and a fast transfer keeps busy. The wait belongs on a thread that nothing else
/// needs: a caller's thread would be tied up, the delegate queue would stop draining (and
/// with it the backpressure that bounds memory), and a Dispatch queue gets its turn late
/// while transfers keep both cores busy, so a cancel sent there lands hundreds of MB later
/// than one sent to this thread. The thread starts with the first job and ends when the
/// session does.
final class ControlThread: @unchecked Sendable {
    // `condition` guards `jobs`, `started` and `stopped`.
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var started = false
    private var stopped = false
    private let name: String

    /// A thread named `name`, started with the first job.
    init(name: String) { self.name = name }

    /// Runs `job` on the thread after the jobs before it.
    func async(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        let start = !started
        started = true
        condition.signal()
        condition.unlock()
        if start {
            let thread = Thread { [self] in run() }
            thread.name = name
            thread.start()
        }
    }

    /// Lets the thread end once the jobs queued so far have run.
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
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs = []
            condition.unlock()
            for job in batch { job() }
        }
    }
}
