/// Where a request stands in an ``OriginLimiter``.
enum OriginPlace {
    case new
    case waiting
    case running
    /// Holding a slot, with the head of its response arrived from its origin.
    case responding
    /// Left, never to enter again.
    case done
}

/// Something an ``OriginLimiter`` queues. It carries its place, written only by the limiter under its owner's lock, so
/// finding whether it waits costs no lookup.
protocol OriginLimited: AnyObject {
    var originPlace: OriginPlace { get set }
    /// When it took its slot with a connection free for it; `nil` when it may wait for a
    /// connection inside the transport, so its head says nothing about the origin's speed.
    var originAdmitted: ContinuousClock.Instant? { get set }
}

/// Lets a bounded number of requests run at once per origin and queues the others in order, by the rules
/// <doc:SafetyOnLinux> gives, so that waiting, which counts against the idle timeout, stays out of the transport.
///
/// Nothing reports the protocol: over HTTP/1.1 a request's end is heard (on one serial queue) before the next head on
/// its connection, so a head heard while more than ``limit`` others have a head and no end proves multiplexing. An end
/// while more than ``limit`` ran, without that proof, makes the origin one-at-a-time until its line is idle (a server
/// that answers at once leaves no time for heads to pile up); a later proof still wins. A request holds the slot of
/// the origin it entered on until it leaves, whatever its redirects, so it never waits for itself. Pure bookkeeping, no
/// lock: `Session` keeps one under its lock and reports heads and ends; a proof of multiplexing lasts for the session's
/// life (up to ``rememberedOrigins``).
struct OriginLimiter<Waiter: OriginLimited> {
    /// The connections per host given to the transport; the most requests on a slow HTTP/1.1 origin; at least 1.
    let limit: Int
    /// The most requests at once on a quick one-per-connection origin: ``limit``, at most 4, since libcurl keeps 4
    /// connections per transfer in progress (`CURLMOPT_MAXCONNECTS` unset) and closes the rest when few run.
    var quickLimit: Int { min(limit, 4) }
    /// How late after taking its slot a head must come to count as slow.
    let slowHead = Duration.milliseconds(40)
    /// How many slow heads in a row make an origin slow; one quicker head makes it quick.
    let slowHeads = 4
    /// The most requests at once on a multiplexing or unknown https origin: libcurl's HTTP/2 stream default.
    let multiplexedLimit = 100
    /// How long a transfer may wait for bytes; waits inside the transport stay within half.
    let idleTimeout: Duration
    /// How long an https origin not heard from yet is taken to answer.
    let assumedAnswer = Duration.milliseconds(500)
    /// How many origins' verdicts are kept; past it they are forgotten all at once.
    let rememberedOrigins = 1024
    /// The origins with requests running or waiting; an idle origin is forgotten.
    private var lines: [Origin: Line] = [:]
    private var multiplexing: Set<Origin> = []
    private var speeds: [Origin: Speed] = [:]

    private struct Speed {
        var slowInARow = 0
        /// How long after taking its slot its latest head came.
        var latest: Duration
    }

    fileprivate struct Line {
        var running = 0
        var responding = 0
        /// Whether a request ended with no proof of multiplexing while more than the limit ran.
        var oneAtATime = false
        /// Waiting requests, oldest first, from `head` on, so letting one in is amortised O(1) with thousands queued.
        var queue: [Waiter?] = []
        var head = 0

        var waiting: ArraySlice<Waiter?> { queue[head...] }

        mutating func next() -> Waiter? {
            guard head < queue.count else { return nil }
            defer {
                queue[head] = nil
                head += 1
                if head * 2 >= queue.count {
                    queue.removeFirst(head)
                    head = 0
                }
            }
            return queue[head]
        }

        /// Lets the oldest waiting requests in, at `now`, while fewer than `bound` run.
        mutating func admit(upTo bound: Int, limit: Int, now: ContinuousClock.Instant) -> [Waiter] {
            var admitted: [Waiter] = []
            while running < bound, let next = next() {
                next.originAdmitted = running < limit ? now : nil
                running += 1
                next.originPlace = .running
                admitted.append(next)
            }
            return admitted
        }
    }

    init(limit: Int, idleTimeout: Duration = .seconds(30)) {
        self.limit = max(1, limit)
        self.idleTimeout = idleTimeout
    }

    func bound(at origin: Origin) -> Int {
        if multiplexing.contains(origin) { return multiplexedLimit }
        if origin.scheme == "https" && lines[origin]?.oneAtATime != true { return unknownBound(at: origin) }
        return isSlow(origin) ? slowBound(at: origin) : quickLimit
    }

    /// One more than ``limit`` while the latest head came within a quarter of the idle timeout: the extra request
    /// takes the next free connection inside the transport, so libcurl never sees a lone transfer and closes others.
    private func slowBound(at origin: Origin) -> Int {
        guard let latest = speeds[origin]?.latest, latest * 4 <= idleTimeout else { return limit }
        return limit + 1
    }

    /// Were the origin HTTP/1.1, requests past ``limit`` would wait inside the transport one response time (latest
    /// head, else ``assumedAnswer``) per ``limit``: kept within half the idle timeout, never under twice ``limit``.
    private func unknownBound(at origin: Origin) -> Int {
        let answer = speeds[origin]?.latest ?? assumedAnswer
        let responses = idleTimeout / (max(answer, .milliseconds(1)) * 2)
        return Int(min(Double(multiplexedLimit), max(Double(2 * limit), Double(limit) * responses)))
    }

    func isSlow(_ origin: Origin) -> Bool { (speeds[origin]?.slowInARow ?? 0) >= slowHeads }

    /// Takes a slot on `origin` for `waiter` and returns `true`, or queues it (or finds it gone) and returns `false`.
    mutating func enter(_ waiter: Waiter, at origin: Origin, now: ContinuousClock.Instant = .now) -> Bool {
        guard waiter.originPlace == .new else { return false }
        let (bound, limit) = (bound(at: origin), self.limit)
        return modifyLine(origin) { line in
            if line.running < bound && line.waiting.isEmpty {
                waiter.originAdmitted = line.running < limit ? now : nil
                line.running += 1
                waiter.originPlace = .running
                return true
            }
            line.queue.append(waiter)
            waiter.originPlace = .waiting
            return false
        }
    }

    /// Notes a head from `origin`, the one `waiter` entered on; returns the requests it lets in, to be started.
    mutating func responded(_ waiter: Waiter, at origin: Origin, now: ContinuousClock.Instant = .now) -> [Waiter] {
        guard waiter.originPlace == .running else { return [] }
        waiter.originPlace = .responding
        if let admitted = waiter.originAdmitted { noteHead(at: origin, after: now - admitted) }
        let limit = self.limit
        let proves = modifyLine(origin) { line in
            line.responding += 1
            return line.responding > limit
        }
        if proves, !multiplexing.contains(origin) {
            if multiplexing.count >= rememberedOrigins { multiplexing.removeAll() }
            multiplexing.insert(origin)
        }
        let bound = bound(at: origin)
        return modifyLine(origin) { $0.admit(upTo: bound, limit: limit, now: now) }
    }

    private mutating func noteHead(at origin: Origin, after elapsed: Duration) {
        if speeds[origin] == nil, speeds.count >= rememberedOrigins { speeds.removeAll() }
        let slow = elapsed >= slowHead
        let run = slow ? min((speeds[origin]?.slowInARow ?? 0) + 1, slowHeads) : 0
        speeds[origin] = Speed(slowInARow: run, latest: elapsed)
    }

    /// Takes `waiter` out, the first time only; returns the requests its slot lets in, to be started.
    mutating func leave(_ waiter: Waiter, at origin: Origin, now: ContinuousClock.Instant = .now) -> [Waiter] {
        let place = waiter.originPlace
        waiter.originPlace = .done
        switch place {
        case .new, .done:
            return []
        case .waiting:
            modifyLine(origin) { line in
                if let index = line.waiting.firstIndex(where: { $0 === waiter }) { line.queue.remove(at: index) }
            }
            return []
        case .running, .responding:
            let limit = self.limit
            modifyLine(origin) { line in
                if place == .responding, line.running > limit { line.oneAtATime = true }
                line.running -= 1
                if place == .responding { line.responding -= 1 }
            }
            let bound = bound(at: origin)
            return modifyLine(origin) { $0.admit(upTo: bound, limit: limit, now: now) }
        }
    }

    private mutating func modifyLine<Result>(_ origin: Origin, _ body: (inout Line) -> Result) -> Result {
        // Taken out and put back, so that its queue is not shared while `body` changes it.
        var line = lines.removeValue(forKey: origin) ?? Line()
        defer { if line.running > 0 || !line.waiting.isEmpty { lines[origin] = line } }
        return body(&line)
    }

    var waiting: [Waiter] {
        lines.values.flatMap { $0.waiting.compactMap { $0 } }
    }

    func runningCount(at origin: Origin) -> Int { lines[origin]?.running ?? 0 }

    func waitingCount(at origin: Origin) -> Int { lines[origin]?.waiting.count ?? 0 }

    func isMultiplexing(_ origin: Origin) -> Bool { multiplexing.contains(origin) }

    var originCount: Int { lines.count }
}

extension OriginLimiter: Sendable where Waiter: Sendable {}
extension OriginLimiter.Line: Sendable where Waiter: Sendable {}
