import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fetch

/// A `RequestPerforming` for tests: records every request and answers from a script.
///
/// By default it answers synchronously, so with a spy at the bottom of a stack the
/// completion has run before `perform` returns.
///
/// Answers are taken in order; when the list is empty, the matcher (if any) is asked.
/// An ``Answer/hold`` keeps the call open as a ``PendingCall`` that the test completes or
/// cancels later. A request nothing answers fails with ``SpyPerformer/Unanswered``.
/// A `FetchError` the spy answers with names the call's method and URL, as `Session`'s do.
///
/// It refuses, with the same error, what `Session` refuses before sending: such a call is
/// recorded with no `URLRequest` and fails at once, using no answer and not asking the matcher.
public final class SpyPerformer: RequestPerforming, @unchecked Sendable {
    /// How the spy answers one call.
    public enum Answer: Sendable {
        /// Complete with this response (its request and URL are set to the call's).
        case response(Response)
        /// Complete with this error.
        case failure(any Error)
        /// Keep the call open; see ``SpyPerformer/pending``.
        case hold
        /// Answer with a body in pieces, and perhaps a failure part way.
        case stream(ScriptedStream)
    }

    /// The error for a call the script does not answer.
    public struct Unanswered: Error, CustomStringConvertible {
        /// The method and URL of the call.
        public let description: String
    }

    /// What the spy keeps, changed under its lock.
    struct State {
        /// The script's answers not used yet.
        var answers: [Answer]
        /// The calls answered with ``Answer/hold``.
        var held: [PendingCall] = []
        var fractions: [Double] = [0.5]
        /// Every call, in the order it reached the spy, for ``nextCall(timeout:scheduler:)``.
        var arrivals = CallArrivals<PendingCall, Waiter>()
    }

    // `lock` guards `state` and every `PendingCall`'s state; `matcher` is immutable. An `NSLock`:
    // this module would call the package's generic lock unspecialized, at run-time cost.
    private let lock = NSLock()
    private var state: State
    private let matcher: (@Sendable (any Request) -> Answer?)?

    /// Makes a spy that answers calls in order from `answers`, then asks `match`.
    /// - Parameters:
    ///   - answers: answers used one per call, in order.
    ///   - match: answers calls once the list is used up; `nil` answers nothing.
    public init(_ answers: [Answer] = [], match: (@Sendable (any Request) -> Answer?)? = nil) {
        state = State(answers: answers)
        self.matcher = match
    }

    /// Runs `body` with the spy's state under its lock.
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }

    /// Adds answers at the end of the script.
    public func enqueue(_ more: Answer...) {
        withState { $0.answers.append(contentsOf: more) }
    }

    /// Every call so far, in order.
    public var calls: [RecordedCall] { withState { $0.arrivals.calls }.map(\.recorded) }

    /// Every request so far, in order, as the caller passed it.
    public var requests: [any Request] { calls.map(\.request) }

    /// The `URLRequest` each call became, in order (`nil` for a request the spy refused).
    public var urlRequests: [URLRequest?] { calls.map(\.urlRequest) }

    /// Calls answered with ``Answer/hold`` that are still open.
    public var pending: [PendingCall] { withState { $0.held }.filter { !$0.isFinished } }

    /// The progress a download or upload reports before its final report, as fractions
    /// of the body's size; `[0.5]` (halfway) by default.
    public var progressFractions: [Double] {
        get { withState { $0.fractions } }
        set { withState { $0.fractions = newValue } }
    }

    /// `nil`: the spy, and the layers above it that answer a call themselves, answer before
    /// `perform` returns (or when a test completes a held call), whatever the call's
    /// `RequestOptions.completionQueue` says; a test reads that from ``RecordedCall/request``.
    public func completionQueue(for request: any Request) -> DispatchQueue? { nil }

    /// Records the call and answers it from the script.
    @discardableResult
    public func perform(
        _ request: any Request,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> any Cancellable {
        let options = request.options
        // A request's own enhancers run (once) with or without an enhancing layer above.
        if let call = performingOwnEnhancers(of: request, options, completion: completion) { return call }
        let kind = options.kind
        let transfer: TransferOptions
        switch kind {
        case .plain, .stream:
            // A stream's script plays to its sink.
            return answer(request, kind: kind.name, destination: nil, completion: completion)
        case .download(let options), .upload(let options): transfer = options
        }
        let fractions = progressFractions
        return answer(request, kind: kind.name, destination: transfer.destination) { result in
            guard case .success(let response) = result else { return completion(result) }
            completion(
                Result {
                    try Self.reportProgress(of: transfer, answering: request, with: response, fractions: fractions)
                    return response
                })
        }
    }

    /// Records a call of `kind` and answers it from the script, unless `Session` would refuse it.
    private func answer(
        _ request: any Request, kind: CallKind.Name, destination: DownloadDestination?,
        completion: @escaping @Sendable (Result<Response, any Error>) -> Void
    ) -> PendingCall {
        let checked = Result { try request.attemptURLRequest() }
        let call = PendingCall(
            RecordedCall(request: request, urlRequest: try? checked.get(), kind: kind, destination: destination),
            lock: lock, completion: completion)
        let (number, answer): (Int, Answer?) = withState { state in
            let number = state.arrivals.arrive(call)
            guard case .success = checked, !state.answers.isEmpty else { return (number, nil) }
            return (number, state.answers.removeFirst())
        }
        // Handed to a waiting test once held or answered (its completion returned), in order.
        defer { settle(number) }
        if case .failure(let refusal) = checked {
            // Refused before anything would be sent: recorded, but the script is left as it is.
            call.complete(with: .failure(refusal))
            return call
        }
        switch answer ?? matcher?(request) {
        case .response(let response):
            call.complete(with: .success(response))
        case .failure(let error):
            call.complete(with: .failure(Self.failure(error, for: call.recorded)))
        case .hold:
            withState { $0.held.append(call) }
        case .stream(let script):
            script.play(to: call)
        case nil:
            let name = "\(request.method) \((call.urlRequest?.url ?? request.url).absoluteString)"
            call.complete(with: .failure(Unanswered(description: "SpyPerformer has no answer for \(name)")))
        }
        return call
    }
}

/// One call a ``SpyPerformer`` received.
public struct RecordedCall: Sendable {
    /// The request as the caller passed it.
    public let request: any Request
    /// What the request became, or `nil` if the spy refused it (see ``SpyPerformer``).
    public let urlRequest: URLRequest?
    /// The call's kind: `.plain` for `perform` and what is built on it, else `.download`,
    /// `.upload` or `.stream`.
    public var kind: CallKind.Name = .plain
    /// Where a download was to be written; `nil` for other calls.
    public var destination: DownloadDestination?

    /// The request's body: bytes, a file (`RequestBody.fileURL`) or a form
    /// (`RequestBody.streamedForm`).
    public var body: RequestBody? { request.body }
}
