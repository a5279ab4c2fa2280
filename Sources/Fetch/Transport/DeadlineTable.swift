/// Elements with a deadline, found by identity, and the time a single timer is armed for.
///
/// Pure bookkeeping, with no clock, lock or timer: times are nanoseconds on the owner's clock, and each change says
/// when the owner must arm its timer. Deadlines are kept in a min-heap, so thousands of stalled requests cost
/// O(log n) each under the owner's lock rather than a scan per firing; a removed element stays in the heap, skipped
/// at the top, until removed ones outnumber the rest.
struct DeadlineTable<Element: AnyObject> {
    private var entries: [ObjectIdentifier: (due: UInt64, element: Element)] = [:]
    /// Every deadline added, earliest at the root; an item counts only while `entries` holds its element at that time.
    private var heap: [(due: UInt64, id: ObjectIdentifier)] = []
    /// When the owner's timer is armed to fire; `nil` when it is not armed.
    private(set) var armedAt: UInt64?

    var count: Int { entries.count }

    /// Adds `element`, due at `due`, in place of its earlier deadline if it has one.
    /// - Returns: the time to arm the timer for, when it must fire earlier than it is armed
    ///   for (or is not armed); `nil` when the timer is already armed early enough.
    mutating func insert(_ element: Element, due: UInt64) -> UInt64? {
        let id = ObjectIdentifier(element)
        entries[id] = (due, element)
        heap.append((due, id))
        var child = heap.count - 1
        while child > 0, heap[(child - 1) / 2].due > due {
            heap.swapAt(child, (child - 1) / 2)
            child = (child - 1) / 2
        }
        if let armedAt, armedAt <= due { return nil }
        armedAt = due
        return due
    }

    /// Takes `element` out, if it is in. The timer stays armed: firing with nothing due, it only re-arms.
    mutating func remove(_ element: Element) {
        entries[ObjectIdentifier(element)] = nil
        // A list sorted by time is a min-heap.
        if heap.count > 2 * entries.count + 64 {
            heap = entries.map { ($0.value.due, $0.key) }.sorted { $0.due < $1.due }
        }
    }

    /// Takes out every element due at or before `now`, for the timer that has just fired.
    /// - Returns: the expired elements, earliest first, and when to arm the timer next
    ///   (`nil`: leave it unarmed, nothing is waiting).
    mutating func expire(now: UInt64) -> (expired: [Element], next: UInt64?) {
        var expired: [Element] = []
        while let top = heap.first, top.due <= now || entries[top.id]?.due != top.due {
            removeRoot()
            if let entry = entries[top.id], entry.due == top.due {
                expired.append(entry.element)
                entries[top.id] = nil
            }
        }
        armedAt = heap.first?.due
        return (expired, armedAt)
    }

    private mutating func removeRoot() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let smaller = left + 1 < heap.count && heap[left + 1].due < heap[left].due ? left + 1 : left
            guard smaller < heap.count, heap[smaller].due < heap[parent].due else { return }
            heap.swapAt(parent, smaller)
            parent = smaller
        }
    }
}

extension DeadlineTable: Sendable where Element: Sendable {}
