import Foundation
import Testing
@testable import Fetch

/// `SingleFlight`, the one single flight under coalescing and refresh: one piece of work per
/// key at a time, its result to every caller in it once, the work cancelled when the last
/// caller leaves.
@Suite struct SingleFlightTests {
    private struct Failed: Error {}

    /// Records what each caller got: the value (or -1 for an error) and the number joined.
    private final class Got: Sendable {
        let calls = Locked<[Int: [String]]>([:])

        func waiter(_ number: Int) -> SingleFlight<String, Int>.Waiter {
            { [calls] result, joined in
                let value = (try? result.get()).map(String.init) ?? "error"
                calls.withLock { $0[number, default: []].append("\(value)/\(joined)") }
            }
        }

        var all: [Int: [String]] { calls.withLock { $0 } }
    }

    @Test func callersOfOneKeyShareOneFlightAndEachGetsItsResultOnce() {
        // Given three callers of key "a" and one of key "b"
        let flights = SingleFlight<String, Int>()
        let got = Got()
        let first = flights.join("a", got.waiter(1))
        let second = flights.join("a", got.waiter(2))
        let other = flights.join("b", got.waiter(3))
        let third = flights.join("a", got.waiter(4))
        #expect([first.starts, second.starts, other.starts, third.starts] == [true, false, true, false])
        #expect(flights.count == 2)
        // When the flight of "a" ends, twice
        flights.finish(second, with: .success(7))
        flights.finish(first, with: .success(8))
        // Then its three callers got the first result once, with the number that joined;
        // "b" still runs, and the next caller of "a" starts a new flight
        #expect(got.all == [1: ["7/3"], 2: ["7/3"], 4: ["7/3"]])
        #expect(flights.count == 1)
        #expect(flights.join("a", got.waiter(5)).starts)
    }

    @Test func theLastCallerToLeaveCancelsTheWorkAndLeftCallersGetNothing() {
        // Given a flight with two callers and its work
        let flights = SingleFlight<String, Int>()
        let got = Got()
        let first = flights.join("a", got.waiter(1))
        let second = flights.join("a", got.waiter(2))
        let work = CancellationHandle()
        flights.started(work, for: first)
        // When one leaves, then leaves again
        let left = flights.leave(first)
        let leftAgain = flights.leave(first)
        // Then it gets its waiter back once and the work goes on
        #expect(left != nil)
        #expect(leftAgain == nil)
        #expect(!work.isCancelled)
        // When the other leaves, then the work reports
        #expect(flights.leave(second) != nil)
        flights.finish(first, with: .success(1))
        // Then the work was cancelled, the flight is gone, and no waiter was called
        #expect(work.isCancelled)
        #expect(flights.count == 0)
        #expect(got.all.isEmpty)
    }

    @Test func workThatStartsAfterEveryCallerLeftIsCancelledAtOnce() {
        // Given a flight whose only caller left before its work started
        let flights = SingleFlight<String, Int>()
        let place = flights.join("a", Got().waiter(1))
        _ = flights.leave(place)
        // When the work's handle arrives
        let work = CancellationHandle()
        flights.started(work, for: place)
        // Then it is cancelled
        #expect(work.isCancelled)
    }

    @Test func joiningIsRefusedOnceAFlightSucceededSinceTheCallerLooked() throws {
        // Given a caller that looked at the successes, and a flight that then failed
        let flights = SingleFlight<String, Int>()
        let seen = flights.succeeded
        let failing = flights.join("a", Got().waiter(1))
        flights.finish(failing, with: .failure(Failed()))
        // Then a failure is no success: the caller may still join
        #expect(flights.succeeded == seen)
        let joined = flights.join("a", unlessSucceededSince: seen, Got().waiter(2))
        #expect(joined?.starts == true)
        // When that flight succeeds
        flights.finish(try #require(joined), with: .success(1))
        // Then a caller that looked before it is refused, and one that looked after is not
        #expect(flights.join("a", unlessSucceededSince: seen, Got().waiter(3)) == nil)
        #expect(flights.join("a", unlessSucceededSince: flights.succeeded, Got().waiter(4)) != nil)
    }

    @Test func racingJoinsLeavesAndEndsGiveEveryCallerOneAnswerAtMost() {
        for _ in 0..<20 {
            // Given 8 threads that each join a shared key 50 times, leave every third place,
            // and end the flight now and then
            let flights = SingleFlight<String, Int>()
            let got = Got()
            let places = Locked<[Int: SingleFlight<String, Int>.Place]>([:])
            let leftCount = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for index in 0..<50 {
                    let number = thread * 50 + index
                    let place = flights.join("k", got.waiter(number))
                    places.withLock { $0[number] = place }
                    if number % 3 == 0, flights.leave(place) != nil { leftCount.withLock { $0 += 1 } }
                    if number % 7 == 0 { flights.finish(place, with: .success(number)) }
                }
            }
            // When the last flight ends
            if let last = places.withLock({ $0.values.max { $0.caller < $1.caller } }) {
                flights.finish(last, with: .success(-2))
            }
            // Then no caller got two answers, and every caller either left or got one
            let all = got.all
            #expect(all.values.allSatisfy { $0.count == 1 })
            #expect(all.count + leftCount.withLock { $0 } == 400)
            #expect(flights.count == 0)
        }
    }
}
