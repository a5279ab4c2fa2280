/// Where a request stands in an ``OriginLimiter``.
enum OriginPlace {
    /// Not entered yet.
    case new
    /// Queued behind the requests running on its origin.
    case waiting
    /// Holding one of its origin's slots.
    case running
    /// Gone: it left, and cannot enter again.
    case done
}

/// Something an ``OriginLimiter`` queues: it carries its place, which only the limiter
/// writes, under its owner's lock, so finding out whether a request waits costs no lookup.
protocol OriginLimited: AnyObject {
    var originPlace: OriginPlace { get set }
}

/// Lets at most ``limit`` requests run at once per origin and queues the others, first in,
/// first out.
///
/// Pure bookkeeping: `Session` keeps one under a lock, starts the requests it is told to
/// start and tells it when each has finished. A request holds the slot of the origin it
/// entered on until it leaves, whatever its redirects: so it can never wait for itself.
struct OriginLimiter<Waiter: OriginLimited> {
    /// The most requests running at once on one origin; at least 1.
    let limit: Int
    /// The origins with requests running or waiting; an idle origin is forgotten.
    private var lines: [Origin: Line] = [:]

    /// The requests of one origin.
    fileprivate struct Line {
        var running = 0
        /// Waiting requests, oldest first, from `head` on; the slots before it were let in
        /// and emptied. Letting one in costs O(1), amortised: a batch of thousands of requests
        /// to one origin must not move the whole queue each time a slot frees.
        var queue: [Waiter?] = []
        var head = 0

        var waiting: ArraySlice<Waiter?> { queue[head...] }

        /// Takes the oldest waiting request out of the queue.
        mutating func next() -> Waiter? {
            guard head < queue.count else { return nil }
            defer {
                queue[head] = nil
                head += 1
                // The emptied slots go once they are half of the queue.
                if head * 2 >= queue.count {
                    queue.removeFirst(head)
                    head = 0
                }
            }
            return queue[head]
        }
    }

    /// - Parameter limit: the most requests running at once per origin; below 1 counts as 1.
    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes a slot on `origin` for `waiter`, or queues it when every slot is taken.
    /// - Returns: `true` when `waiter` holds a slot and is to be started now; `false` when it
    ///   was queued (``leave(_:at:)`` of another request hands it over later), or when it
    ///   has already left.
    mutating func enter(_ waiter: Waiter, at origin: Origin) -> Bool {
        guard waiter.originPlace == .new else { return false }
        let limit = self.limit
        return modifyLine(origin) { line in
            if line.running < limit {
                line.running += 1
                waiter.originPlace = .running
                return true
            }
            line.queue.append(waiter)
            waiter.originPlace = .waiting
            return false
        }
    }

    /// Takes `waiter` out, the first time only: a waiting one leaves the queue, a running one
    /// gives its slot to the oldest waiting request of its origin.
    /// - Returns: the request that now holds the slot, to be started; `nil` when no request
    ///   is to be started.
    mutating func leave(_ waiter: Waiter, at origin: Origin) -> Waiter? {
        let place = waiter.originPlace
        waiter.originPlace = .done
        switch place {
        case .new, .done:
            return nil
        case .waiting:
            modifyLine(origin) { line in
                if let index = line.waiting.firstIndex(where: { $0 === waiter }) { line.queue.remove(at: index) }
            }
            return nil
        case .running:
            return modifyLine(origin) { line in
                guard let next = line.next() else {
                    line.running -= 1
                    return nil
                }
                next.originPlace = .running
                return next
            }
        }
    }

    /// Runs `body` on the line of `origin` and forgets the line once it is idle.
    private mutating func modifyLine<Result>(_ origin: Origin, _ body: (inout Line) -> Result) -> Result {
        // Taken out and put back, so that its queue is not shared while `body` changes it.
        var line = lines.removeValue(forKey: origin) ?? Line()
        defer { if line.running > 0 || !line.waiting.isEmpty { lines[origin] = line } }
        return body(&line)
    }

    /// Every waiting request, oldest first within each origin.
    var waiting: [Waiter] {
        lines.values.flatMap { $0.waiting.compactMap { $0 } }
    }

    func runningCount(at origin: Origin) -> Int { lines[origin]?.running ?? 0 }

    func waitingCount(at origin: Origin) -> Int { lines[origin]?.waiting.count ?? 0 }

    var originCount: Int { lines.count }
}

extension OriginLimiter: Sendable where Waiter: Sendable {}
extension OriginLimiter.Line: Sendable where Waiter: Sendable {}
