import Foundation
import Testing
import Fetch
import FetchTesting
@testable import FetchCaching

/// Layers report in ``ResponseMetrics`` what they did for a call.
@Suite struct LayerMetricsTests {
    @Test func aResponseMadeByHandHasEmptyMetrics() {
        // Given a response made by hand
        let response = Response(status: 200)

        // Then nothing was timed or counted
        #expect(response.metrics == ResponseMetrics())
        #expect(response.metrics.start == nil && response.metrics.total == nil)
    }

    @Test func retryingCountsTheAttemptsBeforeTheResponse() throws {
        // Given two 503s then a 200
        let spy = SpyPerformer([.status(503), .status(503), .status(200)])
        let performer = spy.retrying(.exponential(maxAttempts: 3), scheduler: ImmediateScheduler())

        // When a GET is performed
        let response = try #require(performNow(performer, get("http://x")).flatMap { try? $0.get() })

        // Then the response says it came after two retries
        #expect(response.status == 200)
        #expect(response.metrics.retries == 2)
    }

    @Test func aFirstAttemptReportsNoRetry() throws {
        // Given a 200 at once
        let performer = SpyPerformer([.status(200)]).retrying(
            .exponential(maxAttempts: 3), scheduler: ImmediateScheduler())

        // When a GET is performed
        let response = try #require(performNow(performer, get("http://x")).flatMap { try? $0.get() })

        // Then no retry is reported
        #expect(response.metrics.retries == 0)
    }

    @Test func aCallerDrivenRetryCountsToo() {
        // Given a 503 then a 200, retried by the caller
        let spy = SpyPerformer([.status(503), .status(200)])
        let retries = Recorder<Int>()

        // When the caller retries the 503
        spy.performRetryable(get("http://x"), scheduler: ImmediateScheduler()) { result, retry in
            if case .success(let response) = result, response.status == 503, retry.retry(maxAttempts: 2) { return }
            if case .success(let response) = result { retries.record(response.metrics.retries) }
        }

        // Then the final response counts one retry
        #expect(retries.all == [1])
    }

    @Test func refreshingCountsTheRefresh() throws {
        // Given a 401 then a 200, and a handler that refreshes synchronously
        let store = TokenStore("old")
        let spy = SpyPerformer([.status(401), .status(200)])
        let performer = spy.enhanced(by: BearerToken(store))
            .refreshing(
                with: RefreshTokenHandler { done in
                    store.token = "new"
                    done(.success(()))
                })

        // When a GET is performed
        let response = try #require(performNow(performer, get("http://x")).flatMap { try? $0.get() })

        // Then the response says one refresh ran before it
        #expect(response.status == 200)
        #expect(response.metrics.refreshes == 1)
        #expect(spy.calls.count == 2)
    }

    @Test func loggingPrintsTheMetricsWhenAsked() {
        // Given a logging layer asked for metrics, over a spy whose response carries some
        var metrics = ResponseMetrics()
        metrics.total = .microseconds(2_500)
        metrics.bytesReceived = 42
        metrics.retries = 1
        metrics.cache = .revalidated
        let events = Recorder<LogEvent>()
        let configuration = LogConfiguration(options: [.method, .url, .status, .metrics]) { events.record($0) }
        let spy = SpyPerformer([.response(Response(status: 200, metrics: metrics))])

        // When a call is made
        performNow(spy.logging(configuration), get("http://x/a"))

        // Then the entry has a metrics line
        #expect(
            events.single?.message == """
                GET http://x/a -> 200
                  metrics: total 2.5 ms, sent 0 B, received 42 B, retries 1, cache revalidated
                """)
    }

    @Test func theDefaultLogLineHasNoMetrics() {
        // Given the default log options
        let events = Recorder<LogEvent>()
        var configuration = LogConfiguration { events.record($0) }
        configuration.clock = { .zero }

        // When a call is made
        performNow(SpyPerformer([.status(200)]).logging(configuration), get("http://x/a"))

        // Then the entry is one line
        #expect(events.single?.message == "GET http://x/a -> 200 (0.0 ms)")
    }

    @Test func theDescriptionNamesWhatWasMeasuredAndCounted() {
        // Given metrics with every field set
        var metrics = ResponseMetrics()
        metrics.start = Date(timeIntervalSince1970: 0)
        metrics.queued = .microseconds(100)
        metrics.timeToFirstByte = .microseconds(2_840)
        metrics.total = .milliseconds(3)
        (metrics.redirects, metrics.bytesSent, metrics.bytesReceived) = (2, 10, 412)
        (metrics.retries, metrics.refreshes, metrics.cache, metrics.shared) = (1, 1, .hit, true)

        // Then the line names each
        #expect(
            metrics.description == "queued 0.1 ms, first byte 2.8 ms, total 3.0 ms, sent 10 B, received 412 B, "
                + "redirects 2, retries 1, refreshes 1, cache hit, shared")
        #expect(CacheStatus.hit.isFromCache && CacheStatus.revalidated.isFromCache && !CacheStatus.miss.isFromCache)
    }
}
