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
public final class PendingCall: Cancellable, Sendable {
    /// The request of the call.
    public let request: any Request
    /// What the request became.
    public let urlRequest: URLRequest?
    /// How the call ended, as the test or the caller ended it.
    private let outcome = ResultOnce<Response>()

    /// The caller's cancellation, told apart from an answer that is a cancellation error.
    private struct CancelledByCaller: Error {}

    init(
        request: any Request, urlRequest: URLRequest?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) {
        self.request = request
        self.urlRequest = urlRequest
        outcome.whenFinished { [request, urlRequest] result in
            completion(Self.delivered(result, request: request, urlRequest: urlRequest))
        }
    }

    /// Whether the call has completed, by an answer or by cancellation.
    public var isFinished: Bool { outcome.result != nil }

    /// Whether the caller cancelled the call.
    public var isCancelled: Bool {
        guard case .failure(let error)? = outcome.result else { return false }
        return error is CancelledByCaller
    }

    /// Completes the call with `result`; the response gets this call's request and URL, a
    /// `FetchError` is named after the call. Does nothing if the call already completed.
    public func complete(with result: Result<Response, any Error>) { outcome.finish(result) }

    /// Completes the call with `response`; the helpers of the spy's answers exist here too:
    /// `call.respond(try .json(user))`, `.json(raw: #"{"id":7}"#)`, `.status(404)`, `.text("hi")`.
    public func respond(_ response: Response) { complete(with: .success(response)) }

    /// Completes the call with `error`.
    public func fail(_ error: any Error) { complete(with: .failure(error)) }

    /// Cancels the call: it completes with `FetchError.cancelled`.
    /// Does nothing if the call already completed, so ``isCancelled`` stays `false` for a
    /// call that was answered first.
    public func cancel() { outcome.finish(.failure(CancelledByCaller())) }

    /// What the caller gets for `result`: a response gets the caller's request and the call's
    /// URL, a `FetchError` names the call's method and URL unless it names some already.
    private static func delivered(
        _ result: Result<Response, any Error>, request: any Request, urlRequest: URLRequest?
    ) -> Result<Response, any Error> {
        result.mapError { error -> any Error in
            let error = error is CancelledByCaller ? FetchError.cancelled() : error
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
        }
    }
}
