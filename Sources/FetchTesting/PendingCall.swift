import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// A call a ``SpyPerformer`` holds open, for testing in-flight and cancellation paths.
///
/// Complete it with ``complete(with:)`` or one of the helpers; cancelling it (through the
/// handle `perform` returned) completes it with `FetchError.cancelled`,
/// as `Session` does. Whatever happens first wins; the completion runs once.
public final class PendingCall: Cancellable, @unchecked Sendable {
    // `lock` guards `completion` and `wasCancelled`; `request` and `urlRequest` are immutable.
    private let lock = Locked()
    /// The request of the call.
    public let request: any Request
    /// What the request became.
    public let urlRequest: URLRequest?
    private var completion: (@Sendable (Result<Response, any Error>) -> Void)?
    private var wasCancelled = false

    init(
        request: any Request, urlRequest: URLRequest?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        self.request = request
        self.urlRequest = urlRequest
        self.completion = completion
    }

    /// Whether the call has completed, by an answer or by cancellation.
    public var isFinished: Bool { lock.withLock { completion == nil } }

    /// Whether the caller cancelled the call.
    public var isCancelled: Bool { lock.withLock { wasCancelled } }

    /// Completes the call with `result`; the response gets this call's request and URL, a
    /// `FetchError` is named after the call. Does nothing if the call already completed.
    public func complete(with result: Result<Response, any Error>) {
        guard let completion = take(cancelling: false) else { return }
        deliver(result, to: completion)
    }

    /// Completes the call with `response`; the helpers of the spy's answers exist here too:
    /// `call.respond(try .json(user))`, `.json(raw: #"{"id":7}"#)`, `.status(404)`, `.text("hi")`.
    public func respond(_ response: Response) { complete(with: .success(response)) }

    /// Completes the call with `error`.
    public func fail(_ error: any Error) { complete(with: .failure(error)) }

    /// Cancels the call: it completes with `FetchError.cancelled`.
    /// Does nothing if the call already completed, so ``isCancelled`` stays `false` for a
    /// call that was answered first.
    public func cancel() {
        guard let completion = take(cancelling: true) else { return }
        deliver(.failure(FetchError.cancelled()), to: completion)
    }

    /// Takes the completion if the call is still open, marking it cancelled when `cancelling`,
    /// in one step so that an answer and a cancellation cannot both win.
    private func take(cancelling: Bool) -> (@Sendable (Result<Response, any Error>) -> Void)? {
        lock.withLock {
            guard let completion else { return nil }
            self.completion = nil
            if cancelling { wasCancelled = true }
            return completion
        }
    }

    /// Hands `result` to `completion`: a response gets the caller's request and this call's URL, a
    /// `FetchError` names the call's method and URL unless it names some already.
    private func deliver(
        _ result: Result<Response, any Error>,
        to completion: @Sendable (Result<Response, any Error>) -> Void
    ) {
        completion(
            result.mapError { error -> any Error in
                guard let fetchError = error as? FetchError else { return error }
                return fetchError.naming(
                    method: urlRequest?.httpMethod.map(HTTPMethod.init(rawValue:)) ?? request.method,
                    url: urlRequest?.url ?? request.url)
            }.map { response in
                var response = response
                response.request = callersRequest(of: request)
                if let urlRequest {
                    response.urlRequest = urlRequest
                    response.url = urlRequest.url
                }
                return response
            })
    }

}
