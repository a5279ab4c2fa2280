import Foundation
import Testing
@testable import Fetch

/// How the line learns whether an https origin multiplexes, from the order in which heads and
/// ends arrive, and what it lets run once it knows. Its idle timeout is zero unless a test
/// says otherwise, so that an origin not known yet runs twice the limit however soon it
/// answers.
struct OriginLimiterMultiplexingTests {
    typealias Entry = OriginLimiterTests.Entry

    static let secure = Origin(URL(string: "https://s.example/x"))!
    static let other = Origin(URL(string: "https://t.example/y"))!

    /// A limiter of `limit` on which `count` requests entered `origin`, and those requests.
    static func running(_ count: Int, limit: Int = 2, at origin: Origin = secure) -> (OriginLimiter<Entry>, [Entry]) {
        var limiter = OriginLimiter<Entry>(limit: limit, idleTimeout: .zero)
        let entries = OriginLimiterTests.entries("r", count)
        for entry in entries { _ = limiter.enter(entry, at: origin) }
        return (limiter, entries)
    }

    /// Hands `entry` its head and ends it before any other head arrives, as HTTP/1.1 would.
    /// - Returns: the requests let in.
    @discardableResult
    static func answerAlone(_ limiter: inout OriginLimiter<Entry>, _ entry: Entry, at origin: Origin = secure)
        -> [Entry]
    {
        _ = limiter.responded(entry, at: origin)
        return limiter.leave(entry, at: origin)
    }

    /// Makes `limiter` judge `origin` multiplexing and leaves its line idle: `limit + 1`
    /// requests run, all of their heads arrive, then they end.
    static func proveMultiplexing(_ limiter: inout OriginLimiter<Entry>, _ origin: Origin) {
        let entries = OriginLimiterTests.entries("p", limiter.limit + 1)
        for entry in entries { _ = limiter.enter(entry, at: origin) }
        for entry in entries { _ = limiter.responded(entry, at: origin) }
        for entry in entries { _ = limiter.leave(entry, at: origin) }
    }

    @Test func anHTTPSOriginNotHeardFromYetRunsTwiceTheLimit() {
        // Given a limit of 2 per connection
        // When 5 requests enter on an https origin nothing is known of
        let (limiter, entries) = Self.running(5)
        // Then 4 run, more than 2 connections answer at once over HTTP/1.1, and one waits
        #expect(limiter.runningCount(at: Self.secure) == 4)
        #expect(entries.map(\.originPlace) == [.running, .running, .running, .running, .waiting])
        // And a plain-http origin is held to the limit from the start
        #expect(limiter.bound(at: OriginLimiterTests.a) == 2)
    }

    @Test func headsOfMoreRequestsThanTheLimitProveMultiplexingAndLetTheWaitingIn() {
        // Given a first burst of 8 on an https origin under a limit of 2: 4 ran and 4 waited,
        // and the first was answered and ended alone, which made the origin one-at-a-time
        var (limiter, entries) = Self.running(8)
        Self.answerAlone(&limiter, entries[0])
        #expect(limiter.bound(at: Self.secure) == 2)
        // When heads arrive for two running requests, neither having ended, and then a third
        let first = limiter.responded(entries[1], at: Self.secure)
        let second = limiter.responded(entries[2], at: Self.secure)
        let third = limiter.responded(entries[3], at: Self.secure)
        // Then two open responses prove nothing, since 2 connections carry 2
        #expect(first.isEmpty && second.isEmpty)
        // And a third cannot come over 2 connections one response at a time: the origin
        // multiplexes, and every waiting request is let in, oldest first
        #expect(third.map(\.description) == ["r4", "r5", "r6", "r7"])
        #expect(limiter.bound(at: Self.secure) == limiter.multiplexedLimit)
        #expect(limiter.runningCount(at: Self.secure) == 7)
    }

    @Test func anEndWhileMoreThanTheLimitRanMakesTheOriginOneAtATimeUntilIdle() {
        // Given 4 requests running on an https origin under a limit of 2, and 1 waiting
        var (limiter, entries) = Self.running(5)
        // When the first is answered and ends before any other head arrives
        let handed = Self.answerAlone(&limiter, entries[0])
        // Then the origin serves one request per connection: the waiting one stays in line
        // until fewer than the limit run
        #expect(handed.isEmpty)
        #expect(limiter.bound(at: Self.secure) == 2)
        #expect(limiter.leave(entries[1], at: Self.secure).isEmpty)
        #expect(limiter.leave(entries[2], at: Self.secure).first === entries[4])
        // And once its line is idle, the verdict is forgotten
        for entry in entries { _ = limiter.leave(entry, at: Self.secure) }
        #expect(limiter.bound(at: Self.secure) == 4)
    }

    @Test func theFirstBurstIsSizedToTheIdleTimeoutBeforeAnyHead() {
        // Given https origins under a limit of 6 and idle timeouts of 30 s, 5 s and 1 s
        let timeouts: [Duration] = [.seconds(30), .seconds(5), .seconds(1)]
        // When 200 requests enter on each at once, nothing heard from it yet
        let running = timeouts.map { timeout -> Int in
            var limiter = OriginLimiter<Entry>(limit: 6, idleTimeout: timeout)
            for entry in OriginLimiterTests.entries("r", 200) { _ = limiter.enter(entry, at: Self.secure) }
            return limiter.runningCount(at: Self.secure)
        }
        // Then, taking an answer to come within 500 ms, as many run as would wait half the
        // idle timeout inside URLSession were the origin HTTP/1.1 (6 per 500 ms), at most
        // 100 and never fewer than twice the limit
        #expect(running == [100, 30, 12])
    }

    @Test func theFirstBurstGrowsWithHowSoonTheOriginAnswersWithinHalfTheIdleTimeout() {
        // Given https origins under a limit of 6 and an idle timeout of 5 s, 200 requests
        // entered on each at once: 30 run before any head
        let start = ContinuousClock.now
        let answers: [Duration] = [.milliseconds(100), .milliseconds(250), .seconds(1)]
        let admitted = answers.map { answer -> Int in
            var limiter = OriginLimiter<Entry>(limit: 6, idleTimeout: .seconds(5))
            let entries = OriginLimiterTests.entries("r", 200)
            for entry in entries { _ = limiter.enter(entry, at: Self.secure, now: start) }
            // When the first head comes after 100 ms, 250 ms or 1 s
            return limiter.responded(entries[0], at: Self.secure, now: start + answer).count
        }
        // Then up to 100 run (100 ms), 60 (6 per 250 ms in 2.5 s), or still 30 (1 s): were
        // the origin HTTP/1.1, the last would wait inside URLSession about 2.5 s at most
        #expect(admitted == [70, 30, 0])
    }

    @Test func anHTTP1OrderNeverProvesMultiplexing() {
        // Given 40 requests on an https origin under a limit of 2, the first burst running
        var (limiter, entries) = Self.running(40)
        var running = entries.filter { $0.originPlace == .running }
        var most = running.count
        // When the origin answers as HTTP/1.1 over 2 connections: at most 2 responses open at
        // once, each ending before the next head on its connection, until none waits
        while limiter.waitingCount(at: Self.secure) > 0 {
            let pair = running.prefix(2)
            for entry in pair { _ = limiter.responded(entry, at: Self.secure) }
            for entry in pair { running += limiter.leave(entry, at: Self.secure) }
            running.removeFirst(2)
            most = max(most, limiter.runningCount(at: Self.secure))
        }
        // Then the origin is one-at-a-time, never proven to multiplex, and never ran more than
        // its first burst
        #expect(limiter.bound(at: Self.secure) == 2)
        #expect(!limiter.isMultiplexing(Self.secure))
        #expect(most == 4)
    }

    @Test func multiplexingOutlivesTheIdleLineAndOneAtATimeDoesNot() {
        // Given an https origin proven to multiplex, and another whose requests were answered
        // one at a time (so it was one-at-a-time), both lines idle again
        var limiter = OriginLimiter<Entry>(limit: 2, idleTimeout: .zero)
        Self.proveMultiplexing(&limiter, Self.secure)
        let entries = OriginLimiterTests.entries("o", 4)
        for entry in entries { _ = limiter.enter(entry, at: Self.other) }
        for entry in entries { Self.answerAlone(&limiter, entry, at: Self.other) }
        #expect(limiter.originCount == 0)
        // When new bursts of 10 arrive on each
        let multiplexed = OriginLimiterTests.entries("m", 10).map { limiter.enter($0, at: Self.secure) }
        let other = OriginLimiterTests.entries("s", 10).map { limiter.enter($0, at: Self.other) }
        // Then all run at once on the first, known to multiplex, and twice the limit on the
        // other, whose verdict ended with its burst
        #expect(multiplexed.allSatisfy { $0 })
        #expect(other == Array(repeating: true, count: 4) + Array(repeating: false, count: 6))
        #expect(limiter.isMultiplexing(Self.secure))
        #expect(!limiter.isMultiplexing(Self.other))
    }

    @Test func aHeadOfARequestNotRunningCountsForNothing() {
        // Given an https origin judged one-at-a-time, 2 of its first burst still running under
        // a limit of 2, and a newcomer waiting
        var (limiter, entries) = Self.running(6)
        Self.answerAlone(&limiter, entries[0])
        Self.answerAlone(&limiter, entries[1])
        let newcomer = Entry("new")
        _ = limiter.enter(newcomer, at: Self.secure)
        // When heads are reported twice for one running request, and for the waiting one
        _ = limiter.responded(entries[2], at: Self.secure)
        let twice = limiter.responded(entries[2], at: Self.secure)
        let waiting = limiter.responded(newcomer, at: Self.secure)
        let second = limiter.responded(entries[3], at: Self.secure)
        // Then only the two running requests count: nothing is proven
        #expect(twice.isEmpty && waiting.isEmpty && second.isEmpty)
        #expect(!limiter.isMultiplexing(Self.secure))
        #expect(newcomer.originPlace == .waiting)
    }

    @Test func rememberedOriginsAreBounded() {
        // Given a limiter that proved as many origins to multiplex as it remembers
        var limiter = OriginLimiter<Entry>(limit: 1)
        Self.proveMultiplexing(&limiter, Self.secure)
        for index in 1..<limiter.rememberedOrigins {
            Self.proveMultiplexing(&limiter, Origin(URL(string: "https://o\(index).example/")!)!)
        }
        #expect(limiter.isMultiplexing(Self.secure))
        // When one more origin is proven
        Self.proveMultiplexing(&limiter, Self.other)
        // Then the older ones are forgotten rather than kept without end
        #expect(!limiter.isMultiplexing(Self.secure))
        #expect(limiter.isMultiplexing(Self.other))
    }
}
