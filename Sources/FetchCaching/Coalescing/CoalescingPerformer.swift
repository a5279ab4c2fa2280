import Fetch

/// A performer that lets identical GET and HEAD calls in flight at the same time share one request. Made by
/// `RequestPerforming.coalescing(ignoringHeaders:)`; the Caching article has the rules. Any other call (a body,
/// another kind or method, a relative URL no base URL resolves) goes straight below. The first call sends the
/// request with its own options, and every completion runs exactly once.
///
/// A performer that wraps another, not a `Layer`: a shared request is no one call's, so its sender's cancel spares it.
public struct CoalescingPerformer: WrappingPerformer {
    /// The performer the shared requests go to.
    public let base: any RequestPerforming
    /// Header names (lowercased) that do not make calls different.
    public let ignoredHeaders: Set<String>
    private let flights = SingleFlight<CoalescingKey, SharedResult>()

    /// A shared request's result, and the queue it arrived on.
    private typealias SharedResult = (result: Result<Response, any Error>, queue: DispatchQueue?)

    /// Wraps `base`; copies of the performer share their calls in flight.
    public init(base: any RequestPerforming, ignoringHeaders ignoredHeaders: Set<String> = []) {
        self.base = base
        self.ignoredHeaders = Set(ignoredHeaders.map { $0.lowercased() })
    }

    /// Performs `request`, or joins an identical call in flight.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        // The request's own enhancers run before it is built for the key.
        if !request.options.enhancers.isEmpty { return enhanced(by: []).perform(request, completion: completion) }
        guard CoalescingKey.mayShare(request) else { return base.perform(request, completion: completion) }
        // Built once for this attempt, for the key and every layer below.
        let outgoing = base.prepare(request).checked()
        guard let urlRequest = outgoing.urlRequest, let url = outgoing.url else {
            return base.perform(outgoing.request, completion: completion)
        }
        let fields = urlRequest.allHTTPHeaderFields ?? [:]
        let key = CoalescingKey(urlRequest.httpMethod ?? "GET", url, fields: fields, ignoring: ignoredHeaders)
        let flights = self.flights
        let place = flights.join(key) { [base] shared, joined in
            let own: Result<Response, any Error>
            switch shared {
            case .success((.success(let response), _)):
                var answer = response.answering(request)
                if joined > 1 { answer.metrics.shared = true }
                own = .success(answer)
            case .success((.failure(let error), _)), .failure(let error): own = .failure(error)
            }
            // It arrives where the base calls back for the sent request; a joiner with another queue gets it there.
            guard joined > 1, let queue = base.completionQueue(for: request), case .success(let arrival) = shared,
                queue !== arrival.queue
            else { return completion(own) }
            queue.async { completion(own) }
        }
        if place.starts {
            let sent = base.perform(outgoing.request) { [base] result in
                flights.finish(place, with: .success((result, base.completionQueue(for: request))))
            }
            flights.started(sent, for: place)
        }
        return CallerHandle(flights: flights, place: place, request: request, url: url, base: base)
    }

    /// One caller's seat: cancelling completes it where the performer below would call back,
    /// and the last one out cancels the request. The flights' lock lets a caller out once.
    private struct CallerHandle: Cancellable {
        let flights: SingleFlight<CoalescingKey, SharedResult>
        let place: SingleFlight<CoalescingKey, SharedResult>.Place
        let request: any Request
        let url: URL
        let base: any RequestPerforming

        func cancel() {
            guard let waiter = flights.leave(place) else { return }
            let error = FetchError(.cancelled, reason: "cancelled", method: request.method, url: url)
            let cancelled = Result<SharedResult, any Error>.failure(error)
            guard let queue = base.completionQueue(for: request) else { return waiter(cancelled, 1) }
            queue.async { waiter(cancelled, 1) }
        }
    }

    /// How many shared requests are in flight (for tests and diagnostics).
    public var inFlightCount: Int { flights.count }
}

extension RequestPerforming {
    /// This performer, letting identical GET and HEAD calls in flight at the same time share one request (see
    /// ``CoalescingPerformer``); header names in `ignoringHeaders` (a request ID) do not make calls different.
    public func coalescing(ignoringHeaders: Set<String> = []) -> CoalescingPerformer {
        CoalescingPerformer(base: self, ignoringHeaders: ignoringHeaders)
    }
}

extension ResponseMetrics {
    private enum Shared: MetricKey {
        static let defaultValue = false
        static func description(of value: Bool) -> String? { value ? "shared" : nil }
    }

    /// Whether a coalescing layer handed the same response to several identical calls.
    public var shared: Bool {
        get { self[Shared.self] }
        set { self[Shared.self] = newValue }
    }
}
