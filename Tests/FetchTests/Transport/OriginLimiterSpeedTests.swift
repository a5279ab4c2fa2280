import Foundation
import Testing
@testable import Fetch

/// How the line learns that an origin serving one request per connection answers slowly, from
/// the time between a request taking its slot and its head arriving, and what it lets run then.
/// The clock is passed in: no test waits.
struct OriginLimiterSpeedTests {
    typealias Entry = OriginLimiterTests.Entry

    static let origin = OriginLimiterTests.a
    static let start = ContinuousClock.now

    /// The instant `milliseconds` after ``start``.
    static func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    /// A limiter of `limit` on which `count` requests entered ``origin`` at ``start``.
    static func entered(_ count: Int, limit: Int = 6) -> (OriginLimiter<Entry>, [Entry]) {
        var limiter = OriginLimiter<Entry>(limit: limit)
        let entries = OriginLimiterTests.entries("r", count)
        for entry in entries { _ = limiter.enter(entry, at: origin, now: start) }
        return (limiter, entries)
    }

    @Test func aQuickOriginRunsFourWhateverTheLimit() {
        // Given limits of 6, 10 and 2
        // When 10 requests enter a plain-http origin nothing is known of
        let runs = [6, 10, 2].map { Self.entered(10, limit: $0).0.runningCount(at: Self.origin) }
        // Then 4 run under the larger limits (libcurl keeps 4 connections when one transfer
        // runs), and 2 under a limit of 2
        #expect(runs == [4, 4, 2])
    }

    @Test func slowHeadsInARowLetTheOriginRunTheLimitAndOneMore() {
        // Given 10 requests on a quick origin under a limit of 6 and an idle timeout of 30 s:
        // 4 run and 6 wait
        var (limiter, entries) = Self.entered(10)
        // When the heads of the 4 running arrive 50 ms after they started
        let admitted = entries.prefix(4).map { limiter.responded($0, at: Self.origin, now: Self.at(50)) }
        // Then the first 3 change nothing, and the 4th makes the origin slow: 3 more start,
        // one to wait inside the transport for the next free connection
        #expect(admitted.prefix(3).allSatisfy { $0.isEmpty })
        #expect(admitted[3].map(\.description) == ["r4", "r5", "r6"])
        #expect(limiter.isSlow(Self.origin))
        #expect(limiter.runningCount(at: Self.origin) == 7)
        #expect(entries[6].originAdmitted == nil)
    }

    @Test func aSlowOriginAnsweringInAQuarterOfTheIdleTimeoutOrMoreRunsTheLimit() {
        // Given 10 requests on a quick origin under a limit of 6 and an idle timeout of 8 s
        var limiter = OriginLimiter<Entry>(limit: 6, idleTimeout: .seconds(8))
        let entries = OriginLimiterTests.entries("r", 10)
        for entry in entries { _ = limiter.enter(entry, at: Self.origin, now: Self.start) }
        // When the heads of the 4 running arrive 3 s after they started
        let admitted = entries.prefix(4).flatMap { limiter.responded($0, at: Self.origin, now: Self.at(3000)) }
        // Then the origin is slow and runs the limit, no more: a request waiting inside the
        // transport for one response and then its own could outlast half the idle timeout
        #expect(admitted.map(\.description) == ["r4", "r5"])
        #expect(limiter.runningCount(at: Self.origin) == 6)
    }

    @Test func aHeadSoonerThanTheThresholdEndsTheSlowRun() {
        // Given an origin whose 3 latest heads were slow
        var (limiter, entries) = Self.entered(10)
        for entry in entries.prefix(3) { _ = limiter.responded(entry, at: Self.origin, now: Self.at(50)) }
        // When the 4th head comes 1 ms before the threshold, and then 3 slow ones
        let slowHead = limiter.slowHead
        _ = limiter.responded(entries[3], at: Self.origin, now: Self.start + slowHead - .milliseconds(1))
        let before = limiter.isSlow(Self.origin)
        for entry in entries.prefix(3) { _ = limiter.leave(entry, at: Self.origin, now: Self.at(60)) }
        for entry in entries[4..<7] { _ = limiter.responded(entry, at: Self.origin, now: Self.at(120)) }
        // Then the quick head ended the run: 3 slow heads since are not enough
        #expect(!before)
        #expect(!limiter.isSlow(Self.origin))
        #expect(limiter.bound(at: Self.origin) == 4)
    }

    @Test func aSlowOriginTurnsQuickAgainAndNewcomersWaitForFour() {
        // Given an origin made slow, 7 running and 3 waiting
        var (limiter, entries) = Self.entered(10)
        for entry in entries.prefix(4) { _ = limiter.responded(entry, at: Self.origin, now: Self.at(50)) }
        #expect(limiter.runningCount(at: Self.origin) == 7)
        // When a head comes 1 ms after its request started (at 50 ms), and one request ends
        _ = limiter.responded(entries[4], at: Self.origin, now: Self.at(51))
        let handed = limiter.leave(entries[0], at: Self.origin, now: Self.at(60))
        // Then the origin is quick again: nobody is let in while 6 run
        #expect(!limiter.isSlow(Self.origin))
        #expect(handed.isEmpty)
        #expect(limiter.runningCount(at: Self.origin) == 6)
    }

    @Test func theTimeCountsFromTheSlotNotFromEnteringTheLine() {
        // Given a limit of 1 and 5 requests entered at once, so 4 wait
        var (limiter, entries) = Self.entered(5, limit: 1)
        // When each runs in turn, its head 1 ms after it took its slot, the last ones after
        // waiting 100 ms and more in the line
        var now = 0
        for entry in entries {
            _ = limiter.responded(entry, at: Self.origin, now: Self.at(now + 1))
            now += 100
            _ = limiter.leave(entry, at: Self.origin, now: Self.at(now))
        }
        // Then the origin is quick: time in the line is not the origin's
        #expect(!limiter.isSlow(Self.origin))
    }

    @Test func slownessOutlivesTheIdleLine() {
        // Given an origin made slow whose requests have all ended
        var (limiter, entries) = Self.entered(6)
        for entry in entries.prefix(4) { _ = limiter.responded(entry, at: Self.origin, now: Self.at(50)) }
        for entry in entries { _ = limiter.leave(entry, at: Self.origin, now: Self.at(60)) }
        #expect(limiter.originCount == 0)
        // When a new burst of 10 enters
        let started = OriginLimiterTests.entries("n", 10).map { limiter.enter($0, at: Self.origin) }
        // Then 7 start at once: the origin is still known to be slow
        #expect(started.filter { $0 }.count == 7)
    }

    @Test func rememberedSpeedsAreBounded() {
        // Given a limiter that found as many origins slow as it remembers
        var limiter = OriginLimiter<Entry>(limit: 6)
        func makeSlow(_ origin: Origin) {
            let entries = OriginLimiterTests.entries("s", 4)
            for entry in entries { _ = limiter.enter(entry, at: origin, now: Self.start) }
            for entry in entries { _ = limiter.responded(entry, at: origin, now: Self.at(50)) }
            for entry in entries { _ = limiter.leave(entry, at: origin, now: Self.at(50)) }
        }
        makeSlow(Self.origin)
        for index in 1..<limiter.rememberedOrigins { makeSlow(Origin(URL(string: "http://o\(index).example/")!)!) }
        #expect(limiter.isSlow(Self.origin))
        // When one more origin is found slow
        makeSlow(OriginLimiterTests.b)
        // Then the older ones are forgotten rather than kept without end
        #expect(!limiter.isSlow(Self.origin))
        #expect(limiter.isSlow(OriginLimiterTests.b))
    }
}
