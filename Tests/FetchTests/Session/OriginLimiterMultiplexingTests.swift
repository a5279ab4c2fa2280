import Foundation
import Testing
@testable import Fetch

/// How the line learns whether an https origin multiplexes, from the order in which heads and
/// ends arrive, and what it lets run once it knows.
struct OriginLimiterMultiplexingTests {
    typealias Entry = OriginLimiterTests.Entry

    static let secure = Origin(URL(string: "https://s.example/x"))!
    static let other = Origin(URL(string: "https://t.example/y"))!

    /// A limiter of `limit` on which `count` requests entered `origin`, and those requests.
    static func running(_ count: Int, limit: Int = 2, at origin: Origin = secure) -> (OriginLimiter<Entry>, [Entry]) {
        var limiter = OriginLimiter<Entry>(limit: limit)
        let entries = OriginLimiterTests.entries("r", count)
        for entry in entries { _ = limiter.enter(entry, at: origin) }
        return (limiter, entries)
    }

    /// Makes `limiter` judge `origin` multiplexing and leaves its line idle: `limit + 1`
    /// requests run, all of their heads arrive, then they end.
    static func proveMultiplexing(_ limiter: inout OriginLimiter<Entry>, _ origin: Origin) {
        let entries = OriginLimiterTests.entries("p", limiter.limit + 1)
        for entry in entries { _ = limiter.enter(entry, at: origin) }
        for entry in entries { _ = limiter.responded(entry, at: origin) }
        for entry in entries { _ = limiter.leave(entry, at: origin) }
    }

    @Test func anHTTPSOriginNotKnownYetRunsUpToTheMultiplexedLimit() {
        // Given a limit of 2 per connection
        // When 101 requests enter on an https origin nothing is known of
        let (limiter, entries) = Self.running(101)
        // Then 100 run, as URLSession would send them, and one waits
        #expect(limiter.runningCount(at: Self.secure) == 100)
        #expect(entries.last?.originPlace == .waiting)
        // And a plain-http origin is held to the limit from the start
        #expect(limiter.bound(at: OriginLimiterTests.a) == 2)
    }

    @Test func headsOfMoreRequestsThanTheLimitProveMultiplexingAndLetTheWaitingIn() {
        // Given a first burst of 5 on an https origin under a limit of 2, whose first request
        // was answered and ended alone (so the origin was judged one-at-a-time), and 3
        // newcomers waiting behind the 4 still running
        var (limiter, entries) = Self.running(5)
        _ = limiter.responded(entries[0], at: Self.secure)
        _ = limiter.leave(entries[0], at: Self.secure)
        let newcomers = OriginLimiterTests.entries("n", 3)
        for entry in newcomers { _ = limiter.enter(entry, at: Self.secure) }
        #expect(limiter.waitingCount(at: Self.secure) == 3)
        // When heads arrive for two running requests, neither having ended, and then a third
        let first = limiter.responded(entries[1], at: Self.secure)
        let second = limiter.responded(entries[2], at: Self.secure)
        let third = limiter.responded(entries[3], at: Self.secure)
        // Then two open responses prove nothing, since 2 connections carry 2
        #expect(first.isEmpty && second.isEmpty)
        // And a third cannot come over 2 connections one response at a time: the origin
        // multiplexes, and every waiting request is let in, oldest first
        #expect(third.map(\.description) == ["n0", "n1", "n2"])
        #expect(limiter.bound(at: Self.secure) == limiter.multiplexedLimit)
        #expect(limiter.runningCount(at: Self.secure) == 7)
    }

    @Test func oneResponseAtATimeWithMoreRunningThanTheLimitMakesTheOriginOneAtATime() {
        // Given 4 requests running on an https origin under a limit of 2
        var (limiter, entries) = Self.running(4)
        // When the first is answered and ends before any other head arrives
        _ = limiter.responded(entries[0], at: Self.secure)
        _ = limiter.leave(entries[0], at: Self.secure)
        // Then the origin serves one request per connection: newcomers wait for the limit
        #expect(limiter.bound(at: Self.secure) == 2)
        let newcomer = Entry("new")
        let started = limiter.enter(newcomer, at: Self.secure)
        #expect(!started)
        // And it gets a slot only once fewer than the limit run
        let first = limiter.leave(entries[1], at: Self.secure)
        let second = limiter.leave(entries[2], at: Self.secure)
        #expect(first.isEmpty)
        #expect(second.first === newcomer)
    }

    @Test func noVerdictWhileNoMoreThanTheLimitRan() {
        // Given 2 requests running on an https origin under a limit of 2
        var (limiter, entries) = Self.running(2)
        // When the first is answered and ends while the other runs
        _ = limiter.responded(entries[0], at: Self.secure)
        _ = limiter.leave(entries[0], at: Self.secure)
        // Then nothing is known: so few could not show more than one response per connection
        #expect(limiter.bound(at: Self.secure) == limiter.multiplexedLimit)
        #expect(limiter.runningCount(at: Self.secure) == 1)
    }

    @Test func anHTTP1OrderNeverProvesMultiplexing() {
        // Given 40 requests on an https origin under a limit of 2, the first burst running
        var (limiter, entries) = Self.running(40)
        // When the origin answers as HTTP/1.1 over 2 connections: at most 2 responses open at
        // once, each ending before the next head on its connection, up to the last two
        for pair in stride(from: 0, to: 38, by: 2) {
            for entry in entries[pair..<pair + 2] { _ = limiter.responded(entry, at: Self.secure) }
            for entry in entries[pair..<pair + 2] { _ = limiter.leave(entry, at: Self.secure) }
        }
        // Then the origin is one-at-a-time, never proven to multiplex
        #expect(limiter.bound(at: Self.secure) == 2)
        #expect(!limiter.isMultiplexing(Self.secure))
    }

    @Test func multiplexingOutlivesTheIdleLineAndOneAtATimeDoesNot() {
        // Given an https origin proven to multiplex, and another judged one-at-a-time, both
        // lines idle again
        var limiter = OriginLimiter<Entry>(limit: 2)
        Self.proveMultiplexing(&limiter, Self.secure)
        let entries = OriginLimiterTests.entries("o", 4)
        for entry in entries { _ = limiter.enter(entry, at: Self.other) }
        _ = limiter.responded(entries[0], at: Self.other)
        _ = limiter.leave(entries[0], at: Self.other)
        #expect(limiter.bound(at: Self.other) == 2)
        for entry in entries { _ = limiter.leave(entry, at: Self.other) }
        #expect(limiter.originCount == 0)
        // When new bursts of 10 arrive on each
        let multiplexed = OriginLimiterTests.entries("m", 10).map { limiter.enter($0, at: Self.secure) }
        let other = OriginLimiterTests.entries("s", 10).map { limiter.enter($0, at: Self.other) }
        // Then all run at once on both: the first is known to multiplex, and the second's
        // verdict ended with its burst (a server that answered at once showed nothing)
        #expect(multiplexed.allSatisfy { $0 } && other.allSatisfy { $0 })
        #expect(limiter.isMultiplexing(Self.secure))
        #expect(!limiter.isMultiplexing(Self.other))
    }

    @Test func aHeadOfARequestNotRunningCountsForNothing() {
        // Given an https origin judged one-at-a-time, 3 of its first burst still running under
        // a limit of 2, and a newcomer waiting
        var (limiter, entries) = Self.running(4)
        _ = limiter.responded(entries[0], at: Self.secure)
        _ = limiter.leave(entries[0], at: Self.secure)
        let newcomer = Entry("new")
        _ = limiter.enter(newcomer, at: Self.secure)
        // When heads are reported twice for one running request, and for the waiting one
        _ = limiter.responded(entries[1], at: Self.secure)
        let twice = limiter.responded(entries[1], at: Self.secure)
        let waiting = limiter.responded(newcomer, at: Self.secure)
        let second = limiter.responded(entries[2], at: Self.secure)
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
