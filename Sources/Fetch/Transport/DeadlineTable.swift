/// Elements with a deadline (nanoseconds on the owner's clock), found by identity, and when the owner's one timer is to
/// fire. A min-heap, so thousands of stalled requests cost O(log n) each under the owner's lock, not a scan per firing;
/// a removed element stays in the heap, skipped at the top, until removed ones outnumber the rest.
struct DeadlineTable<Element: AnyObject> {
    private var entries: [ObjectIdentifier: (due: UInt64, element: Element)] = [:]
    /// Earliest at the root; an item counts only while `entries` holds its element at that time.
    private var heap: [(due: UInt64, id: ObjectIdentifier)] = []
    private(set) var armedAt: UInt64?

    var count: Int { entries.count }

    /// Adds `element`, in place of any earlier deadline; returns when to arm the timer, `nil` if armed early enough.
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

    /// Takes out every element due by `now`, earliest first, and says when to arm the timer next (`nil`: unarmed).
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
