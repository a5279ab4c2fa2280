/// Something a ``DeadlineHeap`` holds: it carries its index in the heap (`nil` outside),
/// which only the heap writes, under its owner's lock, so removing it costs no search.
protocol DeadlineTracked: AnyObject {
    var deadlineIndex: Int? { get set }
}

/// Elements ordered by deadline, earliest first (a binary min-heap), and the time a single
/// timer is armed for.
///
/// Pure bookkeeping, with no clock, lock or timer: times are nanoseconds on the owner's
/// clock, and each change says when the owner must arm its timer.
struct DeadlineHeap<Element: DeadlineTracked> {
    fileprivate struct Entry {
        var due: UInt64
        var element: Element
    }

    private var entries: [Entry] = []
    /// When the owner's timer is armed to fire; `nil` when it is not armed.
    private(set) var armedAt: UInt64?

    var count: Int { entries.count }

    /// Adds `element`, due at `due`.
    /// - Returns: the time to arm the timer for, when it must fire earlier than it is armed
    ///   for (or is not armed); `nil` when the timer is already armed early enough.
    mutating func insert(_ element: Element, due: UInt64) -> UInt64? {
        if element.deadlineIndex != nil { remove(element) }
        entries.append(Entry(due: due, element: element))
        element.deadlineIndex = entries.count - 1
        siftUp(entries.count - 1)
        if let armedAt, armedAt <= due { return nil }
        armedAt = due
        return due
    }

    /// Takes `element` out; does nothing when it is not in the heap. The timer stays armed:
    /// when it fires with nothing due it only re-arms.
    mutating func remove(_ element: Element) {
        guard let index = element.deadlineIndex, index < entries.count, entries[index].element === element else {
            return
        }
        element.deadlineIndex = nil
        let last = entries.count - 1
        if index != last {
            entries.swapAt(index, last)
            entries[index].element.deadlineIndex = index
        }
        entries.removeLast()
        if index < entries.count {
            siftDown(index)
            siftUp(index)
        }
    }

    /// Takes out every element due at or before `now`, for the timer that has just fired.
    /// - Returns: the expired elements, earliest first, and when to arm the timer next
    ///   (`nil`: leave it unarmed, nothing is waiting).
    mutating func expire(now: UInt64) -> (expired: [Element], next: UInt64?) {
        var expired: [Element] = []
        while let first = entries.first, first.due <= now {
            remove(first.element)
            expired.append(first.element)
        }
        armedAt = entries.first?.due
        return (expired, armedAt)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].due < entries[parent].due else { return }
            swap(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].due < entries[smallest].due { smallest = left }
            if right < entries.count, entries[right].due < entries[smallest].due { smallest = right }
            guard smallest != parent else { return }
            swap(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swap(_ first: Int, _ second: Int) {
        entries.swapAt(first, second)
        entries[first].element.deadlineIndex = first
        entries[second].element.deadlineIndex = second
    }
}

extension DeadlineHeap: Sendable where Element: Sendable {}
extension DeadlineHeap.Entry: Sendable where Element: Sendable {}
