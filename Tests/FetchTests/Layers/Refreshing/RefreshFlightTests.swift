import Foundation
import Testing
import Fetch
import FetchTesting

/// A refresh that keeps every run's report closure, so a test can report on any run, late
/// or twice.
final class KeptRefreshes: @unchecked Sendable {
    // `lock` guards `reports`.
    private let lock = NSLock()
    private var reports: [@Sendable (Result<Void, any Error>) -> Void] = []

    var handler: RefreshTokenHandler {
        RefreshTokenHandler { [self] done in lock.withLock { reports.append(done) } }
    }

    /// How many runs have started.
    var runs: Int { lock.withLock { reports.count } }

    /// Reports `outcome` for run `index` (0 for the first), however often it already reported.
    func report(run index: Int, _ outcome: Result<Void, any Error>) {
        let done = lock.withLock { reports[index] }
        done(outcome)
    }
}

@Suite struct RefreshFlightTests {
    struct StaleFailure: Error {}

    @Test func aLateReportFromAnEndedRefreshDoesNotEndTheNextOne() {
        // Given a first call refreshed and resent, and a second call whose 401 started a second refresh
        let spy = SpyPerformer([.status(401), .status(200), .status(401), .status(200)])
        let refreshes = KeptRefreshes()
        let performer = spy.refreshing(with: refreshes.handler)
        let first = Recorder<Result<Response, any Error>>()
        let second = Recorder<Result<Response, any Error>>()
        performer.perform(get("http://x/first")) { first.record($0) }
        refreshes.report(run: 0, .success(()))
        performer.perform(get("http://x/second")) { second.record($0) }
        let runsBeforeTheLateReport = refreshes.runs

        // When the first refresh reports again, late, with a failure
        refreshes.report(run: 0, .failure(StaleFailure()))

        // Then the second call still waits for its own refresh
        #expect(outcome(first.single) == "200")
        #expect(runsBeforeTheLateReport == 2)
        #expect(second.count == 0)
        #expect(spy.calls.count == 3)

        // And when its own refresh succeeds, it is resent and succeeds
        refreshes.report(run: 1, .success(()))
        #expect(outcome(second.single) == "200")
        #expect(spy.calls.count == 4)
    }

    @Test func aSecondReportFromTheSameRefreshIsIgnored() {
        // Given two calls waiting on one refresh
        let spy = SpyPerformer([.hold, .hold], match: { _ in .status(200) })
        let refreshes = KeptRefreshes()
        let performer = spy.refreshing(with: refreshes.handler)
        let recorders = (0..<2).map { _ in Recorder<Result<Response, any Error>>() }
        for recorder in recorders { performer.perform(get("http://x")) { recorder.record($0) } }
        for call in spy.pending { call.respond(.status(401)) }

        // When the refresh reports success, then failure
        refreshes.report(run: 0, .success(()))
        refreshes.report(run: 0, .failure(StaleFailure()))

        // Then both calls were resent once and succeeded once
        #expect(refreshes.runs == 1)
        #expect(recorders.map { outcome($0.single) } == ["200", "200"])
        #expect(spy.calls.count == 4)
    }
}
