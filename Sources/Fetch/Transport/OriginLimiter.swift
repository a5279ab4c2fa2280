/// Where a request stands in an ``OriginLimiter``.
enum OriginPlace {
    /// Not entered yet.
    case new
    /// Queued behind the requests running on its origin.
    case waiting
    /// Holding one of its origin's slots.
    case running
    /// Holding a slot, with the head of its response arrived from its origin.
    case responding
    /// Gone: it left, and cannot enter again.
    case done
}

/// Something an ``OriginLimiter`` queues: it carries its place, which only the limiter
/// writes, under its owner's lock, so finding out whether a request waits costs no lookup.
protocol OriginLimited: AnyObject {
    var originPlace: OriginPlace { get set }
    /// When it took its slot while a connection was free for it, which the limiter writes with
    /// its place; `nil` when it may wait for a connection inside the transport, whose head
    /// then says nothing about how soon the origin answers.
    var originAdmitted: ContinuousClock.Instant? { get set }
}

/// Lets a bounded number of requests run at once per origin and queues the others, first
/// in, first out; the bound depends on whether the origin serves several requests at once
/// on one connection, and on how soon it answers.
///
/// - An origin that serves one request per connection (HTTP/1.1; every plain-http origin,
///   since libcurl speaks HTTP/2 only over TLS) runs at most ``quickLimit`` requests at
///   once, or once it is slow ``limit`` and one more: so no request waits inside the
///   transport, where waiting counts against its idle timeout, but the one, for one response.
/// - An origin that multiplexes (HTTP/2) runs up to ``multiplexedLimit`` at once over those
///   connections.
/// - An https origin not known to multiplex runs up to ``multiplexedLimit`` at once, as
///   URLSession would send them, until a verdict; but no more than keeps the wait inside the
///   transport, were it HTTP/1.1, within half the idle timeout: ``limit`` per response time
///   per half idle timeout, the response time being as long as its latest head took, or
///   ``assumedAnswer`` before any head (so a default session sends its whole first burst, as
///   URLSession would, and HTTP/2 gets it in one round); never fewer than twice ``limit``.
///
/// Nothing reports the protocol, so the verdict comes from the order in which the delegate
/// hears heads and ends, all on one serial queue. Over HTTP/1.1 a connection carries one
/// response at a time, and a request's end is heard before the head of the next response on
/// its connection; so at most ``limit`` requests can have their head heard and not have
/// ended. A head heard while more than ``limit`` others are in that state proves the origin
/// multiplexes, for the session's life (up to ``rememberedOrigins`` origins), so a warm
/// origin starts at its bound. A request that ends while more than ``limit`` requests ran,
/// without that proof, makes the origin one-at-a-time until its line is idle: a server that
/// answers at once leaves no time for heads to pile up whatever its protocol, so this verdict
/// is not kept past the burst, and a later proof still wins.
///
/// An origin is slow once ``slowHeads`` heads in a row each came ``slowHead`` or more after
/// their request took its slot, and quick again at the first head that came sooner. A quick
/// origin gets no more than 4 connections' worth of requests because libcurl keeps at most 4
/// connections per transfer in progress (`CURLMOPT_MAXCONNECTS` unset): on a quick origin the
/// running count often dips to 1, and every connection past 4 is closed then and reopened by
/// the next request. A slow origin runs ``limit`` and one more, which keeps the count above
/// one, and each connection past 4 adds a request's worth of throughput, as on a raw
/// URLSession.
///
/// Pure bookkeeping: `Session` keeps one under a lock, starts the requests it is told to
/// start and tells it when a head arrives and when each has finished. A request holds the
/// slot of the origin it entered on until it leaves, whatever its redirects: so it can never
/// wait for itself.
struct OriginLimiter<Waiter: OriginLimited> {
    /// The connections per host the transport is given, and the most requests on them at
    /// once on a slow origin that serves one per connection; at least 1.
    let limit: Int
    /// The most requests running at once on a quick origin that serves one per connection:
    /// ``limit``, but no more than the 4 connections libcurl keeps when one transfer runs.
    let quickLimit: Int
    /// How long after taking its slot a request's head comes, at least, to count as slow.
    let slowHead = Duration.milliseconds(40)
    /// How many slow heads in a row make an origin slow.
    let slowHeads = 4
    /// The most requests running at once on an origin that multiplexes, or an https origin
    /// not known yet: libcurl's default of concurrent streams on one HTTP/2 connection.
    let multiplexedLimit = 100
    /// How long a transfer may wait for bytes; requests waiting for a connection inside the
    /// transport are kept within half of it.
    let idleTimeout: Duration
    /// How long an https origin not heard from is taken to answer, for its first burst.
    let assumedAnswer = Duration.milliseconds(500)
    /// How many origins' verdicts are kept; past it they are forgotten all at once.
    let rememberedOrigins = 1024
    /// The origins with requests running or waiting; an idle origin is forgotten.
    private var lines: [Origin: Line] = [:]
    /// The origins proven to multiplex.
    private var multiplexing: Set<Origin> = []
    /// How soon each origin answered lately.
    private var speeds: [Origin: Speed] = [:]

    /// How soon an origin answered lately.
    private struct Speed {
        /// How many of its latest heads in a row were slow.
        var slowInARow = 0
        /// How long after taking its slot its latest head came.
        var latest: Duration
    }

    /// The requests of one origin.
    fileprivate struct Line {
        var running = 0
        /// Running requests whose head arrived from the origin.
        var responding = 0
        /// Whether a request ended with no proof of multiplexing while more than the limit ran.
        var oneAtATime = false
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

    /// - Parameters:
    ///   - limit: the connections per host; below 1 counts as 1.
    ///   - idleTimeout: how long a transfer may wait for bytes.
    init(limit: Int, idleTimeout: Duration = .seconds(30)) {
        self.limit = max(1, limit)
        quickLimit = min(self.limit, 4)
        self.idleTimeout = idleTimeout
    }

    /// The most requests that may run at once on `origin` now.
    func bound(at origin: Origin) -> Int {
        if multiplexing.contains(origin) { return multiplexedLimit }
        if origin.scheme == "https" && lines[origin]?.oneAtATime != true { return unknownBound(at: origin) }
        return isSlow(origin) ? slowBound(at: origin) : quickLimit
    }

    /// The most requests that may run at once on a slow origin that serves one per
    /// connection: one more than ``limit`` while its latest head came within a quarter of the
    /// idle timeout. That one waits inside the transport for a connection, for one response
    /// at most, and takes the next free connection there at once: so libcurl never counts a
    /// single transfer in progress while the others' replacements are on their way, which
    /// would close every connection past 4.
    private func slowBound(at origin: Origin) -> Int {
        guard let latest = speeds[origin]?.latest, latest * 4 <= idleTimeout else { return limit }
        return limit + 1
    }

    /// The most requests that may run at once on an https origin not known to multiplex:
    /// were it HTTP/1.1, those past ``limit`` would wait inside the transport about one
    /// response time per ``limit`` of them, which is kept within half the idle timeout.
    private func unknownBound(at origin: Origin) -> Int {
        let answer = speeds[origin]?.latest ?? assumedAnswer
        let responses = idleTimeout / (max(answer, .milliseconds(1)) * 2)
        return Int(min(Double(multiplexedLimit), max(Double(2 * limit), Double(limit) * responses)))
    }

    /// Whether `origin`'s latest ``slowHeads`` heads each came ``slowHead`` or more after
    /// their request took its slot.
    func isSlow(_ origin: Origin) -> Bool { (speeds[origin]?.slowInARow ?? 0) >= slowHeads }

    /// Takes a slot on `origin` for `waiter`, or queues it when every slot is taken.
    /// - Returns: `true` when `waiter` holds a slot and is to be started now; `false` when it
    ///   was queued (``leave(_:at:)`` or ``responded(_:at:)`` of another request hands it
    ///   over later), or when it has already left.
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

    /// Notes that the head of `waiter`'s response arrived, at `now`, from `origin`, the one it
    /// entered on.
    /// - Returns: the requests let in because this proved the origin multiplexes, or because
    ///   its speed now allows more, to be started.
    mutating func responded(
        _ waiter: Waiter, at origin: Origin, now: ContinuousClock.Instant = .now
    ) -> [Waiter] {
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

    /// Notes how long after taking its slot a head on `origin` came.
    private mutating func noteHead(at origin: Origin, after elapsed: Duration) {
        if speeds[origin] == nil, speeds.count >= rememberedOrigins { speeds.removeAll() }
        let slow = elapsed >= slowHead
        let run = slow ? min((speeds[origin]?.slowInARow ?? 0) + 1, slowHeads) : 0
        speeds[origin] = Speed(slowInARow: run, latest: elapsed)
    }

    /// Takes `waiter` out, the first time only: a waiting one leaves the queue, a running one
    /// gives its slot to the oldest waiting request of its origin.
    /// - Returns: the requests that now hold a slot, to be started.
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

    /// Whether `origin` was proven to multiplex.
    func isMultiplexing(_ origin: Origin) -> Bool { multiplexing.contains(origin) }

    var originCount: Int { lines.count }
}

extension OriginLimiter: Sendable where Waiter: Sendable {}
extension OriginLimiter.Line: Sendable where Waiter: Sendable {}
