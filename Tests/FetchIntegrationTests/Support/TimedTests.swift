import Testing

/// The suites that time what a request takes: they run one test at a time in a child process
/// of their own (see ``IsolatedRun``), while the rest of the suite runs in this one.
///
/// In one process every session makes, resumes and cancels its tasks with a synchronous call
/// into the process's one URLSession work queue, and each such call waits for the threads
/// queued there before it. While every suite starts requests at once, 50 threads were seen
/// waiting there together: a redirect's two hops reached the server 1.2 s and 2.8 s after the
/// call at a load average of 6 to 8, and a refused connection took 7.5 s to fail at 19, while
/// the server answered in a millisecond. A process running one test at a time has none of
/// that wait (the same redirect's hops took 7 to 87 ms while the whole suite ran beside it).
@Suite(.serialized, .enabled(if: IsolatedRun.isChild(named: "TimedTests/")))
enum TimedTests {}

/// Runs ``TimedTests`` in a child process.
@Suite(.loopbackServers)
struct TimedTestsRun {
    @Test func timedSuitesPassOneTestAtATimeInAProcessOfTheirOwn() async throws {
        // Given the timed suites, and the servers this process runs
        let servers = try LoopbackServers.require()
        // When they run in a child process, one test at a time
        let outcome = try await IsolatedRun.run("TimedTests/", faultServer: servers.faults, timeout: .seconds(600))
        // Then every one passed there
        for line in outcome.lines(from: "Test run with") { print("timed suites: \(line)") }
        #expect(outcome.status == 0, "\(outcome.output.suffix(6000))")
    }
}
