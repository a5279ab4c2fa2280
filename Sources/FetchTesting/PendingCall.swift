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
    /// The call as ``SpyPerformer/calls`` lists it.
    let recorded: RecordedCall
    // `lock` guards `completion` (`nil` once the call has completed) and `wasCancelled`. It is
    // the spy's own lock, so a call makes none; it is never held while a completion runs.
    private let lock: NSLock
    private var completion: (@Sendable (Result<Response, any Error>) -> Void)?
    private var wasCancelled = false

    init(
        _ recorded: RecordedCall, lock: NSLock, completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        self.recorded = recorded
        self.lock = lock
        self.completion = completion
    }

    /// The request of the call.
    public var request: any Request { recorded.request }

    /// What the request became.
    public var urlRequest: URLRequest? { recorded.urlRequest }

    /// Whether the call has completed, by an answer or by cancellation.
    public var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return completion == nil
    }

    /// Whether the caller cancelled the call.
    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return wasCancelled
    }

    /// Completes the call with `result`; the response gets this call's request and URL, a
    /// `FetchError` is named after the call. Does nothing if the call already completed.
    public func complete(with result: Result<Response, any Error>) { finish(result, cancelling: false) }

    /// Completes the call with `response`; the helpers of the spy's answers exist here too:
    /// `call.respond(try .json(user))`, `.json(raw: #"{"id":7}"#)`, `.status(404)`, `.text("hi")`.
    public func respond(_ response: Response) { complete(with: .success(response)) }

    /// Completes the call with `error`.
    public func fail(_ error: any Error) { complete(with: .failure(error)) }

    /// Cancels the call: it completes with `FetchError.cancelled`. Does nothing if the call
    /// already completed, so ``isCancelled`` stays `false` for a call answered first.
    public func cancel() { finish(.failure(FetchError.cancelled()), cancelling: true) }

    /// Takes the completion if the call is still open, marking it cancelled in the same step
    /// so an answer and a cancellation cannot both win, and calls it with `result`.
    private func finish(_ result: Result<Response, any Error>, cancelling: Bool) {
        lock.lock()
        let completion = self.completion
        self.completion = nil
        if completion != nil, cancelling { wasCancelled = true }
        lock.unlock()
        guard let completion else { return }
        let (request, urlRequest) = (recorded.request, recorded.urlRequest)
        switch result {
        case .success(var response):
            response.request = callersRequest(of: request)
            if let urlRequest {
                response.urlRequest = urlRequest
                response.url = urlRequest.url
            }
            completion(.success(response))
        case .failure(let error):
            guard let fetchError = error as? FetchError else { return completion(result) }
            completion(
                .failure(
                    fetchError.naming(
                        method: urlRequest?.httpMethod.map(HTTPMethod.init(rawValue:)) ?? request.method,
                        url: urlRequest?.url ?? request.url)))
        }
    }
}
