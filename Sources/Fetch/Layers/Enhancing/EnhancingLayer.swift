/// Runs ``Enhancer``s on every request it passes down and every response it gets back (`enhanced(by:)`); a
/// request's own ``RequestOptions/enhancers`` are ordered with these by the first enhancing layer it meets.
struct EnhancingLayer: PassingOnce {
    /// The enhancers, in the order they run on an outgoing request.
    let enhancers: [any Enhancer]
    /// Whether one of `enhancers` is an ``AsyncEnhancer``.
    private let waits: Bool
    private let readsResponses: Bool

    /// Sorts `enhancers` by priority, once.
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
        let own = request.options.enhancers
        let ordered = own.isEmpty ? enhancers : EnhancerOrder.sorted(enhancers + own)
        // Enhancers that only change requests leave what comes back as it is.
        let readsResponses = self.readsResponses || !own.isEmpty && Self.readResponses(own)
        guard waits || own.contains(where: { $0 is any AsyncEnhancer }) else {
            return send(request, with: ordered, dropOwn: !own.isEmpty, readsResponses, through: next, completion)
        }
        // Async enhancers are prepared in order in a `Task`, then replaced by what they return.
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
            _ = send(request, with: prepared, dropOwn: !own.isEmpty, readsResponses, through: next, completion)
        }
        return CancellationHandle { task.cancel() }
    }

    /// Sends `request` through `next`, enhanced by `ordered` (without its own when `dropOwn`), and passes what comes
    /// back through `ordered` in reverse: a refused download's file is deleted, a stream's head checked first.
    private func send(
        _ request: any Request, with ordered: [any Enhancer], dropOwn: Bool, _ readsResponses: Bool,
        through next: any RequestPerforming,
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        // Built above for this attempt (by coalescing or a cache): extended, not built again.
        let outgoing = LayeredRequest(
            request, options: { if dropOwn { $0.enhancers = [] } }, adding: ordered,
            built: LayeredRequest.extending(request.layered?.built, with: ordered, for: request))
        guard readsResponses else { return next.perform(outgoing, completion: completion) }
        switch outgoing.options.kind {
        case .plain, .upload, .download:
            return next.perform(outgoing) { result in
                let enhanced = Self.enhance(result, with: ordered, for: request)
                if case .failure = enhanced, case .success(let response) = result, let file = response.fileURL {
                    // The caller gets an error, not the file, so none is left behind.
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
    /// This performer with `enhancers`, run in ``Enhancer/priority`` order, applied to every request and response.
    public func enhanced(by enhancers: any Enhancer...) -> LayeredPerformer {
        layered(EnhancingLayer(enhancers))
    }

    /// This performer with `enhancers`, run in ``Enhancer/priority`` order, applied to every request and response.
    public func enhanced(by enhancers: [any Enhancer]) -> LayeredPerformer {
        layered(EnhancingLayer(enhancers))
    }
}

/// A built-in enhancer that changes requests only, so a layer of only these passes responses on untouched.
protocol RequestOnlyEnhancer: Enhancer {}

extension RequestPerforming {
    /// Sends `request` through an empty enhancing layer over this performer when `options` hold enhancers
    /// (``RequestOptions/enhancers``) that no layer above ran, else `nil`; request-building layers call this first.
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
