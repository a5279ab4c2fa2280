/// A performer that lets identical GET and HEAD calls in flight at the same time share one
/// request. Made by ``RequestPerforming/coalescing(ignoringHeaders:)``.
///
/// Two calls are identical when they have the same method (GET or HEAD), the same URL with
/// its query, and the same header fields as they would be sent: names compared without
/// case, values exactly, order ignored. Header fields added by enhancers *above* this layer
/// (it is below them in the stack) count; ones added below it do not, since every call
/// gets the same. A field named in `ignoringHeaders` (a request ID that differs per call)
/// does not count. A call with a body, a download or upload, or any other method is never
/// coalesced: it goes straight to the performer below.
///
/// The first call sends the request, with its own options (deadline, body limit); the calls
/// that join it while it is in flight wait for its result. Each caller gets the result with
/// its own request in ``Response/request``, and ``ResponseMetrics/shared`` set when the
/// response went to more than one caller. A call that starts after the shared request
/// ended sends a new one.
///
/// Cancelling one caller completes that caller with ``FetchError/Code-swift.enum/cancelled``
/// and leaves the shared request running for the others; when the last caller cancels, the
/// shared request is cancelled. Every completion runs exactly once.
public struct CoalescingPerformer: RequestPerforming {
    /// The performer the shared requests go to.
    package let base: any RequestPerforming
    /// Header names (lowercased) that do not make calls different.
    package let ignoredHeaders: Set<String>
    private let flights: CoalescingFlights

    /// Wraps `base`; copies of the performer share their calls in flight.
    /// - Parameters:
    ///   - base: the performer the shared requests go to.
    ///   - ignoredHeaders: header names that do not make calls different.
    package init(base: any RequestPerforming, ignoringHeaders ignoredHeaders: Set<String> = []) {
        self.base = base
        self.ignoredHeaders = Set(ignoredHeaders.map { $0.lowercased() })
        flights = CoalescingFlights(sendingTo: base)
    }

    /// Performs `request`, or joins an identical call in flight.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        // The request's own enhancers run before it is built for the key.
        if let call = performingOwnEnhancers(of: request, request.options, completion: completion) { return call }
        guard CoalescingKey.mayShare(request) else { return base.perform(request, completion: completion) }
        // Built once for this attempt: the key, and every layer below, use the same request.
        let (outgoing, built) = request.builtForAttempt()
        guard case .success(let urlRequest) = built, let key = CoalescingKey(urlRequest, ignoring: ignoredHeaders)
        else {
            // A request that does not build fails below, with the reason it carries.
            return base.perform(outgoing, completion: completion)
        }
        let (place, starts) = flights.join(key, (request, completion))
        guard starts else { return place }
        let flights = self.flights
        let flight = place.flight
        let handle = base.perform(outgoing) { result in flights.finish(flight, with: result) }
        flights.sent(handle, for: flight)
        return place
    }

    /// How many shared requests are in flight (for tests and diagnostics).
    public var inFlightCount: Int { flights.count }
}

extension RequestPerforming {
    /// This performer, letting identical GET and HEAD calls in flight at the same time
    /// share one request (see ``CoalescingPerformer`` for what makes calls identical).
    ///
    /// ```swift
    /// let api = Session().caching(.init()).coalescing(ignoringHeaders: ["X-Request-ID"])
    /// ```
    /// - Parameter ignoringHeaders: header names that do not make calls different, such
    ///   as a request ID that changes with every call.
    /// - Returns: the coalescing performer.
    public func coalescing(ignoringHeaders: Set<String> = []) -> CoalescingPerformer {
        CoalescingPerformer(base: self, ignoringHeaders: ignoringHeaders)
    }
}
