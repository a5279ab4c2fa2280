import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// A ``RequestPerforming`` for tests: records every request and answers from a script.
///
/// By default it answers synchronously, so with a spy at the bottom of a stack the
/// completion has run before `perform` returns:
///
/// ```swift
/// let spy = SpyPerformer([try .json(User(id: 7, name: "Ada"))])
/// var result: Result<User, any Error>?
/// spy.perform(GetUser(id: 7), as: User.self) { result = $0 }
/// #expect(try result?.get().name == "Ada")
/// #expect(spy.requests.count == 1)
/// ```
///
/// Answers are taken in order; when the list is empty, the matcher (if any) is asked.
/// An ``Answer/hold`` keeps the call open as a ``PendingCall`` that the test completes or
/// cancels later. A request nothing answers fails with ``SpyPerformer/Unanswered``.
public final class SpyPerformer: RequestPerforming, @unchecked Sendable {
    /// How the spy answers one call.
    public enum Answer: Sendable {
        /// Complete with this response (its request and URL are set to the call's).
        case response(Response)
        /// Complete with this error.
        case failure(any Error)
        /// Keep the call open; see ``SpyPerformer/pending``.
        case hold
    }

    /// The error for a call the script does not answer.
    public struct Unanswered: Error, CustomStringConvertible {
        /// The method and URL of the call.
        public let description: String
    }

    // `lock` guards `answers`, `recorded`, `held` and `fractions`; `matcher` is immutable.
    private let lock = NSLockBox()
    private var answers: [Answer]
    private let matcher: (@Sendable (any Request) -> Answer?)?
    private var recorded: [RecordedCall] = []
    private var held: [PendingCall] = []
    private var fractions: [Double] = [0.5]

    /// Makes a spy that answers calls in order from `answers`, then asks `match`.
    /// - Parameters:
    ///   - answers: answers used one per call, in order.
    ///   - match: answers calls once the list is used up; `nil` answers nothing.
    public init(_ answers: [Answer] = [], match: (@Sendable (any Request) -> Answer?)? = nil) {
        self.answers = answers
        self.matcher = match
    }

    /// Adds answers at the end of the script.
    public func enqueue(_ more: Answer...) {
        lock.withLock { answers.append(contentsOf: more) }
    }

    /// Every call so far, in order.
    public var calls: [RecordedCall] { lock.withLock { recorded } }

    /// Every request so far, in order, as the caller passed it.
    public var requests: [any Request] { calls.map(\.request) }

    /// The `URLRequest` each call became, in order (`nil` for a request that failed to build).
    public var urlRequests: [URLRequest?] { calls.map(\.urlRequest) }

    /// Calls answered with ``Answer/hold`` that are still open.
    public var pending: [PendingCall] { lock.withLock { held.filter { !$0.isFinished } } }

    /// The progress a download or upload reports before its final report, as fractions
    /// of the body's size; `[0.5]` (halfway) by default. See SpyPerformer+Transfers.swift.
    public var progressFractions: [Double] {
        get { lock.withLock { fractions } }
        set { lock.withLock { fractions = newValue } }
    }

    /// Records the call and answers it from the script.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        answer(request, kind: .perform, completion: completion)
    }

    /// Records a call of `kind` and answers it from the script.
    func answer(
        _ request: any Request, kind: RecordedCall.Kind, destination: DownloadDestination? = nil,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> PendingCall {
        let built = Result { try request.makeURLRequest() }
        let call = RecordedCall(request: request, urlRequest: try? built.get(), kind: kind, destination: destination)
        let answer: Answer? = lock.withLock {
            recorded.append(call)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
        let pendingCall = PendingCall(request: request, urlRequest: call.urlRequest, completion: completion)
        if case .failure(let error) = built {
            pendingCall.complete(with: .failure(error))
            return pendingCall
        }
        switch answer ?? matcher?(request) {
        case .response(let response):
            pendingCall.complete(with: .success(response))
        case .failure(let error):
            pendingCall.complete(with: .failure(error))
        case .hold:
            lock.withLock { held.append(pendingCall) }
        case nil:
            let name = "\(request.method) \(request.url.absoluteString)"
            pendingCall.complete(with: .failure(Unanswered(description: "SpyPerformer has no answer for \(name)")))
        }
        return pendingCall
    }

}

/// One call a ``SpyPerformer`` received.
public struct RecordedCall: Sendable {
    /// The request as the caller passed it.
    public let request: any Request
    /// What the request became, or `nil` if building it failed.
    public let urlRequest: URLRequest?
    /// Which method of the spy was called.
    public var kind: Kind = .perform
    /// Where a download was to be written; `nil` for other calls.
    public var destination: DownloadDestination?

    /// Which method of the spy a call went through.
    public enum Kind: Sendable, Hashable {
        /// `perform(_:completion:)`.
        case perform
        /// `download(_:to:progress:completion:)`.
        case download
        /// `upload(_:progress:completion:)`.
        case upload
    }

    /// The request's body: bytes, a file (``RequestBody/fileURL``) or a form
    /// (``RequestBody/streamedForm``).
    public var body: RequestBody? { request.body }
}
