import Foundation
import Testing
@testable import Fetch
import TestSupport

/// `ResultOnce`, the one bridge from a completion to its waiters: the first result wins, and
/// every waiter gets it exactly once, whenever it came.
@Suite struct ResultOnceTests {
    private struct Failed: Error, Equatable { let number: Int }

    /// Records every call of every waiter, by waiter.
    private final class Calls: Sendable {
        let got = Locked<[Int: [Int]]>([:])

        func waiter(_ number: Int) -> ResultOnce<Int>.Waiter {
            { [got] result in got.withLock { $0[number, default: []].append((try? result.get()) ?? -1) } }
        }
    }

    @Test func waitersBeforeAndAfterTheResultEachGetItOnce() throws {
        // Given two waiters that come before the result
        let once = ResultOnce<Int>()
        let calls = Calls()
        once.whenFinished(calls.waiter(1))
        once.whenFinished(calls.waiter(2))
        #expect(calls.got.withLock { $0 }.isEmpty)
        #expect(once.result == nil)
        // When the result is set, then a third waiter comes
        #expect(once.finish(.success(7)))
        once.whenFinished(calls.waiter(3))
        // Then each of the three got it once
        #expect(calls.got.withLock { $0 } == [1: [7], 2: [7], 3: [7]])
        #expect(try once.result?.get() == 7)
    }

    @Test func theFirstResultWinsAndLaterOnesReachNoOne() {
        // Given a waiter and a result already set
        let once = ResultOnce<Int>()
        let calls = Calls()
        once.whenFinished(calls.waiter(1))
        #expect(once.finish(.failure(Failed(number: 1))))
        // When two more results come
        let later = [once.finish(.success(2)), once.finish(.failure(Failed(number: 3)))]
        // Then they are refused, the waiter was called once, and the first result stays
        #expect(later == [false, false])
        #expect(calls.got.withLock { $0 } == [1: [-1]])
        #expect(throws: Failed(number: 1)) { try once.result?.get() }
    }

    @Test func anAsyncWaiterGetsTheValueOrTheError() async throws {
        // Given one bridge with a value and one with an error
        let value = ResultOnce<Int>()
        let failure = ResultOnce<Int>()
        // When a task waits on each, one before and one after its result
        let waited = Task { try await value.value }
        value.finish(.success(5))
        failure.finish(.failure(Failed(number: 9)))
        // Then they get the value and the error
        #expect(try await waited.value(within: standardBound, "the wait for the value") == 5)
        await #expect(throws: Failed(number: 9)) {
            try await within("the wait for the error") { try await failure.value }
        }
    }

    @Test func cancellingTheWaitingTaskCancelsTheWorkWhichEndsTheWait() async throws {
        // Given work whose cancellation finishes the bridge, and a task waiting for it
        let once = ResultOnce<Int>()
        let work = CancellationHandle { once.finish(.failure(CancellationError())) }
        let waiter = Task { try await once.value(cancelling: work) }
        // When the waiting task is cancelled
        waiter.cancel()
        // Then the work was cancelled and the wait ends with its error
        await #expect(throws: CancellationError.self) { try await waiter.value(within: standardBound) }
        #expect(work.isCancelled)
    }

    @Test func racingResultsAndWaitersDeliverOneResultToEveryWaiterOnce() async throws {
        for _ in 0..<20 {
            // Given a bridge, 64 callback waiters, 16 async waiters and 8 racing results
            let once = ResultOnce<Int>()
            let calls = Calls()
            let wins = Locked(0)
            let asyncWaiters = (0..<16).map { _ in Task { try await once.value } }
            // When waiters and results arrive on 8 threads at once
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for waiter in 0..<8 { once.whenFinished(calls.waiter(thread * 8 + waiter)) }
                if once.finish(.success(thread)) { wins.withLock { $0 += 1 } }
            }
            // Then one result won, and every waiter got it exactly once
            let winner = try #require(try once.result?.get())
            #expect(wins.withLock { $0 } == 1)
            #expect(calls.got.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<64).map { ($0, [winner]) }))
            for waiter in asyncWaiters {
                #expect(try await waiter.value(within: standardBound, "an async waiter") == winner)
            }
        }
    }
}
