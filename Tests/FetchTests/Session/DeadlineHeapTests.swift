import Testing
@testable import Fetch

struct DeadlineHeapTests {
    /// A request as the heap sees it: a name and its position.
    final class Entry: DeadlineTracked {
        var deadlineIndex: Int?
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test func expiresInDeadlineOrderWhateverTheInsertionOrder() {
        // Given entries due at 50, 10, 40, 20, 30
        var heap = DeadlineHeap<Entry>()
        for (name, due) in [("e", 50), ("a", 10), ("d", 40), ("b", 20), ("c", 30)] {
            _ = heap.insert(Entry(name), due: UInt64(due))
        }
        // When the timer fires at 35
        let (expired, next) = heap.expire(now: 35)
        // Then the three due by then expire, earliest first, and the timer is re-armed for 40
        #expect(expired.map(\.name) == ["a", "b", "c"])
        #expect(expired.allSatisfy { $0.deadlineIndex == nil })
        #expect(next == 40)
        #expect(heap.count == 2)
    }

    @Test func armsOnlyWhenAnEarlierDeadlineArrives() {
        // Given an empty heap
        var heap = DeadlineHeap<Entry>()
        // When entries due at 100, 200, 50 and 60 arrive
        let arms = [100, 200, 50, 60].map { heap.insert(Entry("\($0)"), due: UInt64($0)) }
        // Then the timer is armed for the first, left alone for the later ones, re-armed for 50
        #expect(arms == [100, nil, 50, nil])
        #expect(heap.armedAt == 50)
    }

    @Test func removedEntriesNeverExpireAndAreNotHeld() {
        // Given three entries, the earliest and the middle one finishing before their deadline
        var heap = DeadlineHeap<Entry>()
        let entries = [Entry("a"), Entry("b"), Entry("c")]
        for (index, entry) in entries.enumerated() { _ = heap.insert(entry, due: UInt64(10 * (index + 1))) }
        weak var finished: Entry?
        do {
            let transient = Entry("transient")
            finished = transient
            _ = heap.insert(transient, due: 15)
            heap.remove(transient)
        }
        // When they are removed and the timer fires after every deadline
        heap.remove(entries[0])
        heap.remove(entries[1])
        let (expired, next) = heap.expire(now: 100)
        // Then only the one still running expires, nothing is left to arm for, and a removed
        // entry is not kept alive by the heap
        #expect(expired.map(\.name) == ["c"])
        #expect(next == nil)
        #expect(heap.armedAt == nil)
        #expect(finished == nil)
        #expect(entries[0].deadlineIndex == nil)
    }

    @Test func timerFiringWithNothingDueOnlyReArms() {
        // Given an entry due at 10 whose request finished, and one due at 90
        var heap = DeadlineHeap<Entry>()
        let early = Entry("early")
        _ = heap.insert(early, due: 10)
        _ = heap.insert(Entry("late"), due: 90)
        heap.remove(early)
        // When the timer, armed for 10, fires
        let (expired, next) = heap.expire(now: 10)
        // Then nothing expires and the timer is re-armed for 90
        #expect(expired.isEmpty)
        #expect(next == 90)
    }

    @Test func removalKeepsHeapOrderForAnyPosition() {
        // Given 100 entries due in a shuffled order
        var heap = DeadlineHeap<Entry>()
        let dues = Array(1...100).shuffled()
        let entries = dues.map { Entry("\($0)") }
        for (entry, due) in zip(entries, dues) { _ = heap.insert(entry, due: UInt64(due)) }
        // When every entry whose due time is a multiple of 3 is removed
        for (entry, due) in zip(entries, dues) where due % 3 == 0 { heap.remove(entry) }
        heap.remove(Entry("never inserted"))
        let (expired, _) = heap.expire(now: 1000)
        // Then the rest expire in due order
        #expect(expired.map(\.name) == (1...100).filter { $0 % 3 != 0 }.map { "\($0)" })
    }
}
