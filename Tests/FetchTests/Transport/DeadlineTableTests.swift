import Testing
@testable import Fetch

struct DeadlineTableTests {
    /// A request as the table sees it: a name.
    final class Entry {
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test func expiresInDeadlineOrderWhateverTheInsertionOrder() {
        // Given entries due at 50, 10, 40, 20, 30
        var table = DeadlineTable<Entry>()
        for (name, due) in [("e", 50), ("a", 10), ("d", 40), ("b", 20), ("c", 30)] {
            _ = table.insert(Entry(name), due: UInt64(due))
        }
        // When the timer fires at 35
        let (expired, next) = table.expire(now: 35)
        // Then the three due by then expire, earliest first, and the timer is re-armed for 40
        #expect(expired.map(\.name) == ["a", "b", "c"])
        #expect(next == 40)
        #expect(table.count == 2)
    }

    @Test func armsOnlyWhenAnEarlierDeadlineArrives() {
        // Given an empty table
        var table = DeadlineTable<Entry>()
        // When entries due at 100, 200, 50 and 60 arrive
        let arms = [100, 200, 50, 60].map { table.insert(Entry("\($0)"), due: UInt64($0)) }
        // Then the timer is armed for the first, left alone for the later ones, re-armed for 50
        #expect(arms == [100, nil, 50, nil])
        #expect(table.armedAt == 50)
    }

    @Test func removedEntriesNeverExpireAndAreNotHeld() {
        // Given three entries, the earliest and the middle one finishing before their deadline
        var table = DeadlineTable<Entry>()
        let entries = [Entry("a"), Entry("b"), Entry("c")]
        for (index, entry) in entries.enumerated() { _ = table.insert(entry, due: UInt64(10 * (index + 1))) }
        weak var finished: Entry?
        do {
            let transient = Entry("transient")
            finished = transient
            _ = table.insert(transient, due: 15)
            table.remove(transient)
        }
        // When they are removed and the timer fires after every deadline
        table.remove(entries[0])
        table.remove(entries[1])
        let (expired, next) = table.expire(now: 100)
        // Then only the one still running expires, nothing is left to arm for, and a removed
        // entry is not kept alive by the table
        #expect(expired.map(\.name) == ["c"])
        #expect(next == nil)
        #expect(table.armedAt == nil)
        #expect(finished == nil)
    }

    @Test func timerFiringWithNothingDueOnlyReArms() {
        // Given an entry due at 10 whose request finished, and one due at 90
        var table = DeadlineTable<Entry>()
        let early = Entry("early")
        _ = table.insert(early, due: 10)
        _ = table.insert(Entry("late"), due: 90)
        table.remove(early)
        // When the timer, armed for 10, fires
        let (expired, next) = table.expire(now: 10)
        // Then nothing expires and the timer is re-armed for 90
        #expect(expired.isEmpty)
        #expect(next == 90)
    }

    @Test func removalKeepsDeadlineOrderForAnyPosition() {
        // Given 100 entries due in a shuffled order
        var table = DeadlineTable<Entry>()
        let dues = Array(1...100).shuffled()
        let entries = dues.map { Entry("\($0)") }
        for (entry, due) in zip(entries, dues) { _ = table.insert(entry, due: UInt64(due)) }
        // When every entry whose due time is a multiple of 3 is removed
        for (entry, due) in zip(entries, dues) where due % 3 == 0 { table.remove(entry) }
        table.remove(Entry("never inserted"))
        let (expired, _) = table.expire(now: 1000)
        // Then the rest expire in due order
        #expect(expired.map(\.name) == (1...100).filter { $0 % 3 != 0 }.map { "\($0)" })
    }

    @Test func manyRemovalsAndReinsertionsKeepEveryDeadline() {
        // Given 10,000 entries due at 1...10,000, in a shuffled order
        var table = DeadlineTable<Entry>()
        let entries = (1...10_000).map { Entry("\($0)") }
        for (index, entry) in entries.enumerated().shuffled() { _ = table.insert(entry, due: UInt64(index + 1)) }
        // When all but every 1,000th finish, and those move to a later deadline
        for (index, entry) in entries.enumerated() where (index + 1) % 1_000 != 0 { table.remove(entry) }
        for (index, entry) in entries.enumerated() where (index + 1) % 1_000 == 0 {
            _ = table.insert(entry, due: UInt64(20_000 - index))
        }
        let (early, next) = table.expire(now: 10_000)
        let (late, _) = table.expire(now: 20_000)
        // Then none expires at its old deadline, and each expires once at its new one, earliest first
        #expect(early.isEmpty)
        #expect(next == 10_001)
        #expect(late.map(\.name) == stride(from: 10_000, through: 1_000, by: -1_000).map { "\($0)" })
        #expect(table.count == 0)
    }
}
