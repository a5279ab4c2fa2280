/// Elements with a deadline, found by identity, and the time a single timer is armed for.
///
/// Pure bookkeeping, with no clock, lock or timer: times are nanoseconds on the owner's
/// clock, and each change says when the owner must arm its timer. Adding and removing an
/// element costs one table update; only the timer firing looks at every element, and it
/// fires once per earliest deadline, not per request.
struct DeadlineTable<Element: AnyObject> {
    private var entries: [ObjectIdentifier: (due: UInt64, element: Element)] = [:]
    /// When the owner's timer is armed to fire; `nil` when it is not armed.
    private(set) var armedAt: UInt64?

    var count: Int { entries.count }

    /// Adds `element`, due at `due`, in place of its earlier deadline if it has one.
    /// - Returns: the time to arm the timer for, when it must fire earlier than it is armed
    ///   for (or is not armed); `nil` when the timer is already armed early enough.
    mutating func insert(_ element: Element, due: UInt64) -> UInt64? {
        entries[ObjectIdentifier(element)] = (due, element)
        if let armedAt, armedAt <= due { return nil }
        armedAt = due
        return due
    }

    /// Takes `element` out; does nothing when it is not in the table. The timer stays armed:
    /// when it fires with nothing due it only re-arms.
    mutating func remove(_ element: Element) {
        entries[ObjectIdentifier(element)] = nil
    }

    /// Takes out every element due at or before `now`, for the timer that has just fired.
    /// - Returns: the expired elements, earliest first, and when to arm the timer next
    ///   (`nil`: leave it unarmed, nothing is waiting).
    mutating func expire(now: UInt64) -> (expired: [Element], next: UInt64?) {
        let expired = entries.values.filter { $0.due <= now }.sorted { $0.due < $1.due }
        for entry in expired { remove(entry.element) }
        armedAt = entries.values.map(\.due).min()
        return (expired.map(\.element), armedAt)
    }
}

extension DeadlineTable: Sendable where Element: Sendable {}
