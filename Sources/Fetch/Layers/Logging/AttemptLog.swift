/// Each attempt a logged call sent, and its result: a layer that does not deliver one as it came (retry, refresh, a
/// hook, an error handler) records it first. A request built again before its result is the same attempt.
final class AttemptLog: Sendable {
    struct Attempt {
        var sent: URLRequest
        var result: Result<Response, any Error>?
        /// What an error handler replaced with another error, when one did.
        var replaced: Result<Response, any Error>?
    }

    private let attempts = Locked<[Attempt]>([])
    /// Hears each attempt that another attempt followed, with its number (from 1).
    private let onEarlierAttempt: @Sendable (Attempt, Int) -> Void

    init(onEarlierAttempt: @escaping @Sendable (Attempt, Int) -> Void) {
        self.onEarlierAttempt = onEarlierAttempt
    }

    var last: Attempt? { attempts.withLock { $0.last } }

    func sent(_ urlRequest: URLRequest) {
        let finished: (Attempt, Int)? = attempts.withLock { attempts in
            let last = attempts.last
            if let last, last.result == nil { attempts.removeLast() }
            attempts.append(Attempt(sent: urlRequest))
            guard let last, last.result != nil else { return nil }
            return (last, attempts.count - 1)
        }
        if let finished { onEarlierAttempt(finished.0, finished.1) }
    }

    /// Records the latest attempt's result unless one is recorded already; `replaced` when an error handler replaced
    /// it with another.
    func received(_ result: Result<Response, any Error>, replaced: Bool = false) {
        attempts.withLock { attempts in
            guard !attempts.isEmpty else { return }
            if attempts[attempts.count - 1].result == nil { attempts[attempts.count - 1].result = result }
            if replaced { attempts[attempts.count - 1].replaced = result }
        }
    }
}
