import Testing
import Fetch

@Suite struct BackoffTests {
    @Test func exponentialDelaysGrowUpToTheCap() {
        // Given an exponential back-off without jitter
        let backoff = Backoff.exponential(
            initial: .milliseconds(100), multiplier: 2, maximum: .milliseconds(500), jitter: .none)

        // When the delays of the first five retries are computed
        let delays = (1...5).map { backoff.delay(beforeRetry: $0) }

        // Then they double until the cap
        #expect(
            delays == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500),
            ])
    }

    @Test func fullJitterScalesByTheRandomSource() {
        // Given full jitter whose random source always answers 0.25, and one that answers out of range
        let quarter = Backoff.exponential(initial: .seconds(1), maximum: .seconds(8), jitter: .full(random: { 0.25 }))
        let wild = Backoff.exponential(initial: .seconds(1), jitter: .full(random: { 7 }))

        // When delays are computed
        // Then each is the capped delay times the random number, clamped to 0...1
        #expect(quarter.delay(beforeRetry: 3) == .seconds(1))
        #expect(quarter.delay(beforeRetry: 10) == .seconds(2))
        #expect(wild.delay(beforeRetry: 1) == .seconds(1))
    }

    @Test func defaultFullJitterStaysWithinTheDelay() {
        // Given the default full jitter
        let backoff = Backoff.exponential(initial: .seconds(1), jitter: .full)

        // When many delays are drawn
        let delays = (0..<200).map { _ in backoff.delay(beforeRetry: 2) }

        // Then each lies between zero and the computed two seconds, and they differ
        #expect(delays.allSatisfy { $0 >= .zero && $0 <= .seconds(2) })
        #expect(Set(delays).count > 1)
    }

    @Test func hugeRetryNumbersStayAtTheCap() {
        // Given an exponential back-off
        let backoff = Backoff.exponential(initial: .seconds(1), maximum: .seconds(30), jitter: .none)

        // When a very late retry is computed
        // Then the delay is the cap, not an overflow
        #expect(backoff.delay(beforeRetry: 5000) == .seconds(30))
    }

    @Test func constantDelaysStayTheSame() {
        // Given a constant back-off
        let backoff = Backoff.constant(.seconds(2))

        // When delays are computed
        // Then they are all the same
        #expect([1, 2, 9].map { backoff.delay(beforeRetry: $0) } == [.seconds(2), .seconds(2), .seconds(2)])
    }
}
