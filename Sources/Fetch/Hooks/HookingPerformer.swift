/// A performer that runs pre-request hooks on every request and post-request hooks on
/// every response. Made by ``RequestPerforming/hooking(pre:post:)``.
///
/// Pre-request hooks run in order, each on the previous one's output; one that throws
/// fails the call at once (on the calling thread) with an error naming it, and nothing is
/// sent. Post-request hooks run in order on each response (errors pass them by); a hook
/// may let the response continue, send a new request whose response goes on to the
/// hooks after it, or complete the call; one that throws fails the call with an error
/// naming it. The caller gets its own request in ``Response/request``.
public struct HookingPerformer: RequestPerforming {
    /// The performer the requests go to.
    package let base: any RequestPerforming
    /// The hooks run before sending, in order.
    package let pre: [PreRequestHook]
    /// The hooks run on each response, in order.
    package let post: [PostRequestHook]

    /// Wraps `base`.
    package init(base: any RequestPerforming, pre: [PreRequestHook], post: [PostRequestHook]) {
        self.base = base
        self.pre = pre
        self.post = post
    }

    /// Performs `request` through the hooks.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        var mapped = request
        for hook in pre {
            do {
                mapped = try hook(mapped)
            } catch {
                completion(.failure(FetchError.wrapping(error, layer: hook.name, request: request)))
                return CancellationHandle()
            }
        }
        // What a hook sent goes down as the caller's request, so responses name the caller's.
        let outgoing = pre.isEmpty ? request : LayeredRequest(mapped, for: request)
        if post.isEmpty { return base.perform(outgoing, completion: completion) }
        let call = LayerCall(request: request, completion: completion)
        send(outgoing, for: call, thenFrom: 0)
        return call
    }

    private func send(_ request: any Request, for call: LayerCall, thenFrom hook: Int) {
        call.run {
            base.perform(request) { result in runPost(on: result, for: call, from: hook) }
        }
    }

    private func runPost(on result: Result<Response, any Error>, for call: LayerCall, from first: Int) {
        guard case .success(let response) = result, first < post.count else {
            return call.finish(result)
        }
        for index in first..<post.count {
            let hook = post[index]
            do {
                switch try hook(response, original: call.request) {
                case .continue: continue
                case .completed: return call.finish(result)
                case .send(let next):
                    call.request.attemptLog?.received(result)
                    return send(LayeredRequest(next, for: call.request), for: call, thenFrom: index + 1)
                }
            } catch {
                return call.finish(.failure(FetchError.wrapping(error, layer: hook.name, request: call.request)))
            }
        }
        call.finish(result)
    }
}

extension RequestPerforming {
    /// This performer with `pre` hooks run on every request and `post` hooks on every response.
    ///
    /// ```swift
    /// let api = Session().hooking(
    ///     pre: [PreRequestHook("trace") { $0.with(\.deadline, .seconds(5)) }],
    ///     post: [PostRequestHook("audit") { response, _ in audit(response); return .continue }]
    /// )
    /// ```
    /// - Returns: the hooking performer.
    public func hooking(pre: [PreRequestHook] = [], post: [PostRequestHook] = []) -> HookingPerformer {
        HookingPerformer(base: self, pre: pre, post: post)
    }
}
