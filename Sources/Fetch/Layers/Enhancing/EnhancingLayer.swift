/// The layer that runs ``Enhancer``s on every request it passes down and on every response
/// it gets back. Made by `enhanced(by:)`.
///
/// The enhancers are sorted once, when the layer is made. A request can add its own for one
/// call through ``RequestOptions/enhancers``; they are ordered together with these, by the
/// first enhancing layer the request meets. The request goes down as one flat value, so
/// responses name the caller's own request in ``Response/request``.
struct EnhancingLayer: PassingOnce {
    /// The enhancers, in the order they run on an outgoing request.
    let enhancers: [any Enhancer]
    /// Whether one of `enhancers` is an ``AsyncEnhancer``, so calls wait for it.
    private let waits: Bool

    /// Whether one of `enhancers` changes responses (is not a `RequestOnlyEnhancer`).
    private let readsResponses: Bool

    /// Sorts `enhancers` by priority.
    init(_ enhancers: [any Enhancer]) {
        self.enhancers = EnhancerOrder.sorted(enhancers)
        waits = enhancers.contains { $0 is any AsyncEnhancer }
        readsResponses = Self.readResponses(enhancers)
    }

    private static func readResponses(_ enhancers: [any Enhancer]) -> Bool {
        enhancers.contains { !($0 is any RequestOnlyEnhancer) }
    }

    func passesOnce(_ request: any Request) -> Bool {
        !waits && !request.options.enhancers.contains { $0 is any AsyncEnhancer }
    }

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        // The request's own enhancers are used here, once, ordered with this layer's.
        let own = request.options.enhancers
        let ordered = own.isEmpty ? enhancers : EnhancerOrder.sorted(enhancers + own)
        guard waits || own.contains(where: { $0 is any AsyncEnhancer }) else {
            return send(request, with: ordered, dropOwn: !own.isEmpty, through: next, completion)
        }
        // Every async enhancer is prepared, in order, in a `Task`, then the request is sent with
        // the prepared enhancers in their places. Cancelling the call cancels the `Task`.
        let task = Task {
            var prepared: [any Enhancer] = []
            for enhancer in ordered {
                guard let waiting = enhancer as? any AsyncEnhancer else {
                    prepared.append(enhancer)
                    continue
                }
                do {
                    prepared.append(try await waiting.prepared(for: request))
                } catch {
                    // Named with the URL this layer's enhancers resolve, as the call's cancellation is.
                    let stack = LayeredPerformer(layer: self, base: next)
                    return completion(
                        .failure(FetchError.wrapping(error, layer: enhancer.name, request: request, through: stack)))
                }
            }
            _ = send(request, with: prepared, dropOwn: !own.isEmpty, through: next, completion)
        }
        return CancellationHandle { task.cancel() }
    }

    /// Sends `request` through `next`, enhanced by `ordered` (without its own enhancers when
    /// `dropOwn`), and passes what comes back through `ordered`, in reverse order:
    /// the response of a plain call or an upload when the call ends; a download's too, whose
    /// file is deleted when an enhancer refuses the response; a stream's head before its
    /// reader gets any of the body (or, when the performer below did not stream, the whole
    /// response when the call ends).
    private func send(
        _ request: any Request, with ordered: [any Enhancer], dropOwn: Bool, through next: any RequestPerforming,
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        // Built above for this attempt (by a coalescing or caching layer): extended, not built again.
        let outgoing = LayeredRequest(
            request, options: { if dropOwn { $0.enhancers = [] } }, adding: ordered,
            built: LayeredRequest.extending(request.layered?.built, with: ordered, for: request))
        // Enhancers that only change requests leave what comes back as it is.
        guard readsResponses || ordered.count > enhancers.count && Self.readResponses(ordered) else {
            return next.perform(outgoing, completion: completion)
        }
        switch outgoing.options.kind {
        case .plain, .upload:
            return next.perform(outgoing) { result in completion(Self.enhance(result, with: ordered, for: request)) }
        case .download:
            return next.perform(outgoing) { result in
                let enhanced = Self.enhance(result, with: ordered, for: request)
                if case .failure = enhanced, case .success(let response) = result, let file = response.fileURL {
                    // The caller gets an error and no file: none is left behind. A file that
                    // cannot be removed stays; the call has failed either way.
                    try? FileManager.default.removeItem(at: file)
                }
                completion(enhanced)
            }
        case .stream(let sink):
            // Added for this attempt only: a retry above sends through here again.
            let check = sink.addHeadCheck { head in
                head = try Self.enhance(.success(head), with: ordered, for: request).get()
            }
            return next.perform(outgoing) { result in
                sink.removeHeadCheck(check)
                // A head the reader has went through the enhancers already.
                completion(sink.hasStarted ? result : Self.enhance(result, with: ordered, for: request))
            }
        }
    }

    private static func enhance(
        _ result: Result<Response, any Error>, with ordered: [any Enhancer], for request: any Request
    ) -> Result<Response, any Error> {
        guard case .success(var response) = result else { return result }
        for enhancer in ordered.reversed() {
            do {
                try enhancer.enhance(&response)
            } catch {
                let sent = response.urlRequest
                return .failure(
                    FetchError.wrapping(
                        error, layer: enhancer.name, method: HTTPMethod(rawValue: sent.httpMethod ?? "GET"),
                        url: sent.url ?? request.url))
            }
        }
        return .success(response)
    }
}

extension RequestPerforming {
    /// This performer with `enhancers` applied to every request and response.
    ///
    /// ```swift
    /// let api = Session().enhanced(by: BaseURL("https://api.example.com"), BearerToken(store))
    /// ```
    /// - Parameter enhancers: the enhancers, run in ``Enhancer/priority`` order.
    /// - Returns: the enhancing performer.
    public func enhanced(by enhancers: any Enhancer...) -> LayeredPerformer {
        layered(EnhancingLayer(enhancers))
    }

    /// This performer with `enhancers` applied to every request and response.
    /// - Parameter enhancers: the enhancers, run in ``Enhancer/priority`` order.
    /// - Returns: the enhancing performer.
    public func enhanced(by enhancers: [any Enhancer]) -> LayeredPerformer {
        layered(EnhancingLayer(enhancers))
    }
}

/// A built-in enhancer that changes requests only (its `enhance(_ response:)` is the default,
/// which does nothing): an enhancing layer whose enhancers are all of these passes responses
/// on without running them.
protocol RequestOnlyEnhancer: Enhancer {}

extension RequestPerforming {
    /// Sends `request` through an enhancing layer with no enhancers of its own, over this
    /// performer, when its `options` hold enhancers (``RequestOptions/enhancers``) that no
    /// enhancing layer above ran; `nil` when they hold none. The layers that build a request
    /// and the performers at the bottom call this first, so those run once per attempt.
    package func performingOwnEnhancers(
        of request: any Request, _ options: RequestOptions,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> (any Cancellable)? {
        guard !options.enhancers.isEmpty else { return nil }
        return layered(EnhancingLayer([])).perform(request, completion: completion)
    }
}

extension RequestOptions {
    private enum EnhancersKey: RequestOptionKey { static let defaultValue: [any Enhancer] = [] }

    /// Enhancers for this request only, ordered by priority together with the performer's.
    public var enhancers: [any Enhancer] {
        get { self[EnhancersKey.self] }
        set { self[EnhancersKey.self] = newValue }
    }
}
