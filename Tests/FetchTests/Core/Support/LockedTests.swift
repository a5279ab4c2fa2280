import Foundation
import Testing
@testable import Fetch

/// `Locked`, the package's one lock: its state changes only inside `withLock`, one caller
/// at a time.
@Suite struct LockedTests {
    private struct Counts: Sendable {
        var total = 0
        var calls: [Int] = []
    }

    private struct Refused: Error {}

    @Test func changesMadeInsideWithLockStayAndItsResultComesBack() {
        // Given a lock around a struct
        let locked = Locked(Counts())
        // When a change returns a value
        let returned = locked.withLock { counts -> Int in
            counts.total += 5
            counts.calls.append(1)
            return counts.total * 2
        }
        // Then the value comes back and the change is there on the next read
        #expect(returned == 10)
        #expect(locked.withLock { $0.total } == 5)
        #expect(locked.withLock { $0.calls } == [1])
    }

    @Test func anErrorThrownInsideReachesTheCallerAndKeepsWhatWasChanged() {
        // Given a lock around a count
        let locked = Locked(0)
        // When a change throws halfway
        #expect(throws: Refused.self) {
            try locked.withLock { count in
                count = 3
                throw Refused()
            }
        }
        // Then the lock is free again and the change made before the error stays
        #expect(locked.withLock { $0 } == 3)
    }

    @Test func concurrentChangesAreNeverLost() {
        // Given a lock around a count and a list, and 8 threads
        let locked = Locked(Counts())
        // When each thread makes 1,000 read-modify-writes
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<1_000 {
                locked.withLock { counts in
                    let before = counts.total
                    counts.calls.append(thread)
                    counts.total = before + 1
                }
            }
        }
        // Then every one of them is there
        let counts = locked.withLock { $0 }
        #expect(counts.total == 8_000)
        #expect(counts.calls.count == 8_000)
        #expect((0..<8).allSatisfy { thread in counts.calls.filter { $0 == thread }.count == 1_000 })
    }

    @Test func aPlainLockLetsOneCallerInAtATime() {
        // Given a plain lock, and a count it guards that lives outside it
        final class Guarded: @unchecked Sendable {
            // `lock` guards `inside` and `most`.
            let lock = Locked()
            var inside = 0
            var most = 0
        }
        let guarded = Guarded()
        // When 8 threads enter 500 times each
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<500 {
                guarded.lock.withLock {
                    guarded.inside += 1
                    guarded.most = max(guarded.most, guarded.inside)
                    guarded.inside -= 1
                }
            }
        }
        // Then no two were ever inside together
        #expect(guarded.lock.withLock { guarded.most } == 1)
    }
}
