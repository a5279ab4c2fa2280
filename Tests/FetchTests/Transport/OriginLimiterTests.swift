import Foundation
import Testing
@testable import Fetch

struct OriginLimiterTests {
    /// A request as the limiter sees it: a name and the place the limiter gives it.
    final class Entry: OriginLimited, CustomStringConvertible {
        var originPlace = OriginPlace.new
        var originAdmitted: ContinuousClock.Instant?
        let description: String
        init(_ name: String) { description = name }
    }

    static let a = Origin(URL(string: "http://a.example/x"))!
    static let b = Origin(URL(string: "http://b.example/y"))!

    /// Makes `count` entries named `prefix0`, `prefix1`...
    static func entries(_ prefix: String, _ count: Int) -> [Entry] {
        (0..<count).map { Entry("\(prefix)\($0)") }
    }

    @Test func runsUpToTheLimitAndQueuesTheRest() {
        // Given a limit of 2
        var limiter = OriginLimiter<Entry>(limit: 2)
        let entries = Self.entries("r", 4)
        // When 4 requests enter on one origin
        let started = entries.map { limiter.enter($0, at: Self.a) }
        // Then the first 2 start and the other 2 wait
        #expect(started == [true, true, false, false])
        #expect(entries.map(\.originPlace) == [.running, .running, .waiting, .waiting])
        #expect(limiter.runningCount(at: Self.a) == 2)
        #expect(limiter.waitingCount(at: Self.a) == 2)
    }

    @Test func releaseHandsTheSlotToTheOldestWaiting() {
        // Given a limit of 1, one running request and three waiting, in order
        var limiter = OriginLimiter<Entry>(limit: 1)
        let entries = Self.entries("r", 4)
        for entry in entries { _ = limiter.enter(entry, at: Self.a) }
        // When each running request leaves in turn
        var order: [String] = []
        var running = entries[0]
        while let next = limiter.leave(running, at: Self.a).first {
            order.append(next.description)
            running = next
        }
        // Then the waiting ones start first in, first out, one at a time, and the origin is forgotten
        #expect(order == ["r1", "r2", "r3"])
        #expect(entries.allSatisfy { $0.originPlace == .done })
        #expect(limiter.originCount == 0)
    }

    @Test func leavingWithNobodyWaitingFreesTheSlot() {
        // Given two running requests under a limit of 2
        var limiter = OriginLimiter<Entry>(limit: 2)
        let entries = Self.entries("r", 2)
        for entry in entries { _ = limiter.enter(entry, at: Self.a) }
        // When one leaves, and a new request enters
        let next = limiter.leave(entries[0], at: Self.a)
        let newcomer = limiter.enter(Entry("new"), at: Self.a)
        // Then no request is handed the slot, and the new one starts at once
        #expect(next.isEmpty)
        #expect(newcomer)
    }

    @Test func cancelledWaitingRequestLeavesTheQueueAndNeverStarts() {
        // Given one running request and three waiting under a limit of 1
        var limiter = OriginLimiter<Entry>(limit: 1)
        let entries = Self.entries("r", 4)
        for entry in entries { _ = limiter.enter(entry, at: Self.a) }
        // When the second waiting request leaves (it was cancelled)
        let handedOver = limiter.leave(entries[2], at: Self.a)
        // Then no slot changes hands, and later the others start in order without it
        #expect(handedOver.isEmpty)
        #expect(limiter.waitingCount(at: Self.a) == 2)
        #expect(limiter.runningCount(at: Self.a) == 1)
        let first = limiter.leave(entries[0], at: Self.a).first
        let second = first.flatMap { limiter.leave($0, at: Self.a).first }
        #expect(first === entries[1])
        #expect(second === entries[3])
        #expect(entries[2].originPlace == .done)
    }

    @Test func leavingTwiceReleasesOnce() {
        // Given one running request and one waiting under a limit of 1
        var limiter = OriginLimiter<Entry>(limit: 1)
        let entries = Self.entries("r", 2)
        for entry in entries { _ = limiter.enter(entry, at: Self.a) }
        // When the running one leaves twice (its completion and a late cancel)
        let first = limiter.leave(entries[0], at: Self.a)
        let second = limiter.leave(entries[0], at: Self.a)
        // Then the slot is handed over once, and the origin still runs exactly one request
        #expect(first.count == 1 && first.first === entries[1])
        #expect(second.isEmpty)
        #expect(limiter.runningCount(at: Self.a) == 1)
    }

    @Test func requestThatLeftBeforeEnteringNeverStarts() {
        // Given a request that finished (a deadline of zero) before it was admitted
        var limiter = OriginLimiter<Entry>(limit: 1)
        let early = Entry("early")
        _ = limiter.leave(early, at: Self.a)
        // When it enters
        let started = limiter.enter(early, at: Self.a)
        // Then it neither starts nor takes a slot
        #expect(!started)
        #expect(limiter.runningCount(at: Self.a) == 0)
        #expect(limiter.originCount == 0)
    }

    @Test func originsAreIndependent() {
        // Given a limit of 1 and a request running on origin a
        var limiter = OriginLimiter<Entry>(limit: 1)
        _ = limiter.enter(Entry("a0"), at: Self.a)
        // When requests enter on a again and on b
        let secondOnA = limiter.enter(Entry("a1"), at: Self.a)
        let firstOnB = limiter.enter(Entry("b0"), at: Self.b)
        // Then a's waits while b's starts
        #expect(!secondOnA)
        #expect(firstOnB)
        #expect(limiter.waiting.map(\.description) == ["a1"])
    }

    @Test func originIgnoresCaseAndDefaultPort() {
        // Given URLs that differ only in the case of the host and the spelling of the default port
        let plain = Origin(URL(string: "http://A.example/x"))
        let explicit = Origin(URL(string: "http://a.example:80/y"))
        // When compared
        // Then they are one origin, and another port is another
        #expect(plain == explicit)
        #expect(plain != Origin(URL(string: "http://a.example:8080/")))
        #expect(plain != Origin(URL(string: "https://a.example/")))
    }

    @Test func limitBelowOneCountsAsOne() {
        // Given a limit of 0
        var limiter = OriginLimiter<Entry>(limit: 0)
        // When two requests enter
        let started = [limiter.enter(Entry("r0"), at: Self.a), limiter.enter(Entry("r1"), at: Self.a)]
        // Then one runs: a limit of 0 would never start anything
        #expect(limiter.limit == 1)
        #expect(started == [true, false])
    }

    @Test func longQueueStaysInOrderAcrossCompaction() {
        // Given a limit of 1 and 300 waiting requests (enough for the queue to compact itself)
        var limiter = OriginLimiter<Entry>(limit: 1)
        let entries = Self.entries("r", 301)
        for entry in entries { _ = limiter.enter(entry, at: Self.a) }
        // When every request leaves as soon as it runs, a few waiting ones cancelled on the way
        for index in stride(from: 50, to: 301, by: 50) { _ = limiter.leave(entries[index], at: Self.a) }
        var order: [Entry] = []
        var running = entries[0]
        while let next = limiter.leave(running, at: Self.a).first {
            order.append(next)
            running = next
        }
        // Then all the others ran once each, in the order they came
        let expected = entries.enumerated().filter { $0.offset > 0 && $0.offset % 50 != 0 }.map(\.element)
        #expect(order.count == expected.count)
        #expect(zip(order, expected).allSatisfy { $0 === $1 })
        #expect(limiter.originCount == 0)
    }
}
