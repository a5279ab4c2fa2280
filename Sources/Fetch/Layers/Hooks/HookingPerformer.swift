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
                base.callBack(
                    completion,
                    with: .failure(FetchError.wrapping(error, layer: hook.name, request: request, through: base)),
                    for: request)
                return NothingToCancel()
            }
        }
        // What a hook sent goes down as the caller's request, so responses name the caller's,
        // and as a call of the caller's kind, so a stream or a download stays one.
        let kind = request.options.kind
        let outgoing = pre.isEmpty ? request : LayeredRequest(mapped, for: request, options: { $0.kind = kind })
        if post.isEmpty { return base.perform(outgoing, completion: completion) }
        let call = LayerCall(request: request, through: base, completion: completion)
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
                    let kind = try Self.kind(ofNextAfter: response, for: call.request, hook: hook)
                    call.request.attemptLog?.received(result)
                    let outgoing = LayeredRequest(next, for: call.request, options: { $0.kind = kind })
                    return send(outgoing, for: call, thenFrom: index + 1)
                }
            } catch {
                return call.finish(
                    .failure(FetchError.wrapping(error, layer: hook.name, request: call.request, through: base)))
            }
        }
        call.finish(result)
    }

    /// The kind of the request a post-request hook sends in place of `response`: a plain
    /// call's or an upload's is plain (it has its own body, or none); a download's goes to the
    /// same destination, once the file of the response it replaces is deleted; a stream's
    /// goes to the same reader while the reader has no head.
    /// - Throws: ``FetchError/Code-swift.enum/layer`` for a stream whose reader has its head
    ///   and perhaps its body: nothing can replace what it read.
    private static func kind(
        ofNextAfter response: Response, for request: any Request, hook: PostRequestHook
    ) throws -> CallKind {
        let kind = request.options.kind
        switch kind {
        case .plain, .upload: return .plain
        case .download:
            if let file = response.fileURL { try? FileManager.default.removeItem(at: file) }
            return kind
        case .stream(let sink):
            guard !sink.hasStarted else {
                throw FetchError(
                    .layer, reason: "\(hook.name) sent another request after the stream's reader had its response",
                    method: request.method, url: response.urlRequest.url ?? request.url, layer: hook.name)
            }
            return kind
        }
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
