import Dispatch

/// The calls in flight of one ``CoalescingPerformer``, by key, and who waits for each.
///
/// One lock guards the table and every flight in it, so that joining a flight, leaving it
/// and its end meet one after the other: a caller never joins a flight whose request was
/// cancelled, and the request is cancelled only when its last caller has left.
final class CoalescingFlights: @unchecked Sendable {
    // `lock` guards `flights`, `nextCaller` and the `var`s of every ``Flight``.
    private let lock = Locked()
    private var flights: [CoalescingKey: Flight] = [:]
    private var nextCaller = 0
    /// Where the flights' requests go, whose stack resolves the URL a caller's cancellation names
    /// and the queue it is delivered on.
    private let base: any RequestPerforming

    init(sendingTo base: any RequestPerforming) { self.base = base }

    /// A caller waiting for a flight: its request and its completion.
    typealias Caller = (request: any Request, completion: @Sendable (Result<Response, any Error>) -> Void)

    /// One request in flight and the callers waiting for it.
    final class Flight: @unchecked Sendable {
        // `key` is immutable; every `var` is guarded by the lock of the ``CoalescingFlights`` that made it.
        let key: CoalescingKey
        /// The callers still waiting, by number.
        var callers: [Int: Caller] = [:]
        /// How many callers joined in all.
        var joined = 0
        /// The handle of the request below, once `perform` returned it.
        var handle: (any Cancellable)?
        /// Whether the flight ended: answered, or left by its last caller.
        var isOver = false
        /// Whether it ended because its last caller left: its request is to be cancelled.
        var wasAbandoned = false
        /// The request of the caller that started the flight, which went below.
        let sent: any Request

        init(key: CoalescingKey, sent: any Request) { (self.key, self.sent) = (key, sent) }
    }

    /// One caller's place in a flight: cancelling it makes the caller leave.
    struct Place: Cancellable {
        let flights: CoalescingFlights
        let flight: Flight
        let caller: Int

        func cancel() { flights.leave(flight, caller: caller) }
    }

    /// Joins the flight of `key`, or starts one when none is in flight.
    /// - Returns: the caller's place, and whether the caller started the flight and so must
    ///   send the request, then hand its handle to ``sent(_:for:)`` and its result to
    ///   ``finish(_:with:)``.
    func join(_ key: CoalescingKey, _ caller: Caller) -> (place: Place, starts: Bool) {
        lock.withLock {
            nextCaller += 1
            let existing = flights[key]
            let flight = existing ?? Flight(key: key, sent: caller.request)
            if existing == nil { flights[key] = flight }
            flight.callers[nextCaller] = caller
            flight.joined += 1
            return (Place(flights: self, flight: flight, caller: nextCaller), existing == nil)
        }
    }

    /// Keeps the handle of the flight's request; cancels it at once when every caller left
    /// before it was sent.
    func sent(_ handle: any Cancellable, for flight: Flight) {
        let cancelNow: Bool = lock.withLock {
            if flight.isOver { return flight.wasAbandoned }
            flight.handle = handle
            return false
        }
        if cancelNow { handle.cancel() }
    }

    /// Ends the flight with `result`: every caller still waiting gets it, each with its own
    /// request in the response. Does nothing once the flight is over.
    func finish(_ flight: Flight, with result: Result<Response, any Error>) {
        let (callers, joined) = lock.withLock { () -> ([Caller], Int) in
            guard !flight.isOver else { return ([], 0) }
            flight.isOver = true
            if flights[flight.key] === flight { flights[flight.key] = nil }
            defer { (flight.callers, flight.handle) = ([:], nil) }
            return (flight.callers.sorted { $0.key < $1.key }.map(\.value), flight.joined)
        }
        // The result arrives where the performer below calls back for the request sent; a
        // caller that asked for another queue of its own gets it there.
        let arrived = callers.count > 1 ? base.completionQueue(for: flight.sent) : nil
        for caller in callers {
            let own = result.map { response in
                var response = response
                response.request = callersRequest(of: caller.request)
                response.metrics.shared = joined > 1
                return response
            }
            guard callers.count > 1, let queue = base.completionQueue(for: caller.request), queue !== arrived else {
                caller.completion(own)
                continue
            }
            queue.async { caller.completion(own) }
        }
    }

    /// Takes `caller` out of `flight`: it completes with ``FetchError/Code-swift.enum/cancelled``,
    /// unless it already completed. When it was the last one waiting, the flight ends and
    /// its request is cancelled.
    func leave(_ flight: Flight, caller: Int) {
        let (left, toCancel) = lock.withLock { () -> (Caller?, (any Cancellable)?) in
            guard let left = flight.callers.removeValue(forKey: caller) else { return (nil, nil) }
            guard flight.callers.isEmpty, !flight.isOver else { return (left, nil) }
            (flight.isOver, flight.wasAbandoned) = (true, true)
            if flights[flight.key] === flight { flights[flight.key] = nil }
            defer { flight.handle = nil }
            return (left, flight.handle)
        }
        toCancel?.cancel()
        guard let left else { return }
        let cancelled = FetchError.cancelled(left.request, through: base)
        // Where the performer below would have called back, not on the canceller's thread.
        guard let queue = base.completionQueue(for: left.request) else { return left.completion(.failure(cancelled)) }
        queue.async { left.completion(.failure(cancelled)) }
    }

    /// How many flights are in the table.
    var count: Int { lock.withLock { flights.count } }
}
