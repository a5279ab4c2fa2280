/// Runs pre-request hooks in order, each on the previous one's output, and post-request hooks on every response; the
/// caller gets its own request in ``Response/request``.
struct HookLayer: Layer {
    let pre: [PreRequestHook]
    let post: [PostRequestHook]

    func perform(
        _ request: any Request, next: any RequestPerforming,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        var mapped = request
        for hook in pre {
            do {
                mapped = try hook(mapped)
            } catch {
                completion(.failure(FetchError.wrapping(error, layer: hook.name, request: request, through: next)))
                return NothingToCancel()
            }
        }
        // Sent as the caller's request (responses name it) and of the caller's kind (a stream or a download stays one).
        let kind = request.options.kind
        let outgoing = pre.isEmpty ? request : LayeredRequest(mapped, for: request, options: { $0.kind = kind })
        return send(outgoing, for: request, through: next, thenFrom: 0, completion)
    }

    private func send(
        _ outgoing: any Request, for request: any Request, through next: any RequestPerforming, thenFrom first: Int,
        _ completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        next.perform(outgoing) { result in
            guard case .success(let response) = result else { return completion(result) }
            for index in first..<post.count {
                let hook = post[index]
                do {
                    switch try hook(response, original: request) {
                    case .continue: continue
                    case .completed: return completion(result)
                    case .send(let another):
                        guard request.options.kind.canBeSentAgain else {
                            let reason = "\(hook.name) sent another request after the stream's reader had its response"
                            let url = response.urlRequest.url ?? request.url
                            let error = FetchError(
                                .layer, reason: reason, method: request.method, url: url, layer: hook.name)
                            return completion(.failure(error))
                        }
                        request.attemptLog?.received(result)
                        let kind = Self.kind(ofNextAfter: response, for: request)
                        let outgoing = LayeredRequest(another, for: request, options: { $0.kind = kind })
                        _ = send(outgoing, for: request, through: next, thenFrom: index + 1, completion)
                        return
                    }
                } catch {
                    return completion(
                        .failure(FetchError.wrapping(error, layer: hook.name, request: request, through: next)))
                }
            }
            completion(result)
        }
    }

    private static func kind(ofNextAfter response: Response, for request: any Request) -> CallKind {
        let kind = request.options.kind
        switch kind {
        case .plain, .upload: return .plain
        case .download:
            // A file that cannot be removed stays; the next response replaces it either way.
            if let file = response.fileURL { try? FileManager.default.removeItem(at: file) }
            return kind
        case .stream: return kind
        }
    }
}

extension RequestPerforming {
    /// This performer with `pre` hooks run on every request and `post` hooks on every response.
    public func hooking(pre: [PreRequestHook] = [], post: [PostRequestHook] = []) -> LayeredPerformer {
        layered(HookLayer(pre: pre, post: post))
    }
}
