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
///
/// Two stream suites' timings run there too, beside these: the stopped reader's idle timeout
/// (its socket went unread for over 2 s in this process at a load average of 10 to 12, and
/// the server's 0.8 s send took 5.4 s), and a deadline that must leave time for a stream's
/// head (which had not come within 5 s at 19).
///
/// So does the one stream that reads at full speed, 200 MiB left after its first chunk: until
/// its cancel reaches libcurl, every chunk passes through the process's one work queue. Under
/// the thread sanitizer, at a load average of 5 to 9, its cancel came after all 200 MiB and
/// tests beside it waited on that queue: a one-second idle timeout fired after 10.6 s, and
/// completions of finished calls came after more than 10 s.
@Suite(.serialized, .enabled(if: TimedProcess.isChild))
enum TimedTests {}

/// The child process that runs the timed suites.
enum TimedProcess {
    /// What it runs.
    static let filter =
        "TimedTests/|StoppedReaderTests/|StreamTests/theDeadlineEndsAStreamAfterItsChunks"
        + "|StreamTests/leavingTheLoopEndsTheTransfer"
    /// Whether this process is that child.
    static let isChild = IsolatedRun.isChild(named: filter)
}

/// Runs ``TimedTests`` in a child process.
@Suite(.loopbackServers)
struct TimedTestsRun {
    @Test func timedSuitesPassOneTestAtATimeInAProcessOfTheirOwn() async throws {
        // Given the timed suites, and the servers this process runs
        let servers = try LoopbackServers.require()
        // When they run in a child process, one test at a time
        let outcome = try await IsolatedRun.run(
            TimedProcess.filter, faultServer: servers.faults, timeout: .seconds(600))
        // Then every one passed there
        for line in outcome.lines(from: "Test run with") { print("timed suites: \(line)") }
        #expect(outcome.status == 0, "\(outcome.output.suffix(6000))")
    }
}
