/// Decides whether a call is tried again: a value that looks at one finished attempt and
/// returns a decision. It never waits; ``RequestPerforming/retrying(_:scheduler:)`` waits through its scheduler.
///
/// ```swift
/// Session().retrying(.exponential(maxAttempts: 3))
/// Session().retrying(RetryPolicy { attempt in attempt.number < 2 ? .retry : .stop })
/// ```
public struct RetryPolicy: Sendable {
    /// One finished attempt.
    public struct Attempt: Sendable {
        /// Which attempt this was: 1 for the first.
        public let number: Int
        /// The request, as the retrying layer got it.
        public let request: any Request
        /// What the attempt produced.
        public let result: Result<Response, any Error>

        /// Makes an attempt, for testing a policy.
        public init(number: Int, request: any Request, result: Result<Response, any Error>) {
            self.number = number
            self.request = request
            self.result = result
        }
    }

    /// What to do after an attempt.
    public enum Decision: Sendable, Hashable {
        /// Try again at once.
        case retry
        /// Try again after this delay.
        case retryAfter(Duration)
        /// Deliver this attempt's result.
        case stop
    }

    /// The most attempts, the first included.
    public var maxAttempts: Int
    /// The delay before each retry, when the response does not name one.
    public var backoff: Backoff
    /// Error codes worth another attempt.
    public var retryableCodes: Set<FetchError.Code> = [.timedOut, .connectionLost, .notConnected, .cannotConnect]
    /// Statuses worth another attempt.
    public var retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Methods retried without the request opting in.
    public var retryableMethods: Set<HTTPMethod> = HTTPMethod.idempotent
    /// Whether a `Retry-After` header sets the delay.
    public var respectsRetryAfter = true
    /// The longest `Retry-After` the policy waits for; a longer one stops the retries.
    public var maximumRetryAfter: Duration = .seconds(60)
    /// A budget shared by every copy of this policy, or `nil` for none.
    public var budget: RetryBudget?
    /// The current time, to read a `Retry-After` date; replaceable for tests.
    public var now: @Sendable () -> Date = { Date() }
    private let custom: (@Sendable (Attempt) -> Decision)?

    /// Makes a built-in policy: at most `maxAttempts` attempts, `backoff` before each retry, a shared `budget` if any.
    public init(maxAttempts: Int, backoff: Backoff, budget: RetryBudget? = nil) {
        self.maxAttempts = maxAttempts
        self.backoff = backoff
        self.budget = budget
        custom = nil
    }

    /// Makes a policy that decides with `decide` alone; of the other properties only a set budget is consulted.
    public init(budget: RetryBudget? = nil, decide: @escaping @Sendable (Attempt) -> Decision) {
        maxAttempts = .max
        backoff = .constant(.zero)
        self.budget = budget
        custom = decide
    }

    /// Up to `maxAttempts` attempts with exponentially growing, fully jittered delays.
    public static func exponential(
        maxAttempts: Int = 3, initial: Duration = .milliseconds(200), multiplier: Double = 2,
        maximum: Duration = .seconds(30), jitter: Jitter = .full
    ) -> RetryPolicy {
        let backoff = Backoff.exponential(initial: initial, multiplier: multiplier, maximum: maximum, jitter: jitter)
        return RetryPolicy(maxAttempts: maxAttempts, backoff: backoff)
    }

    /// Up to `maxAttempts` attempts, `delay` apart.
    public static func constant(maxAttempts: Int = 3, delay: Duration = .seconds(1), jitter: Jitter = .none)
        -> RetryPolicy
    {
        RetryPolicy(maxAttempts: maxAttempts, backoff: .constant(delay, jitter: jitter))
    }

    /// Never retries.
    public static let never = RetryPolicy { _ in .stop }

    /// The decision after `attempt`; to the built-in rules a ``FetchError`` carrying a ``FetchError/response`` counts
    /// as that response.
    public func decide(_ attempt: Attempt) -> Decision {
        if let custom { return custom(attempt) }
        // Most attempts succeed: read the status in place, not through `Result.response`'s copy.
        switch attempt.result {
        case .success(let response): return decide(after: response, attempt)
        case .failure(let error):
            // A status a layer below made an error counts as that response; if that says stop, its code may not.
            if let response = (error as? FetchError)?.response {
                let decision = decide(after: response, attempt)
                if decision != .stop { return decision }
            }
            guard retryableCodes.contains(FetchError.mapping(error, method: nil, url: nil).code),
                attempt.number < maxAttempts, allowsRetry(of: attempt.request)
            else { return .stop }
            return .retryAfter(backoff.delay(beforeRetry: attempt.number))
        }
    }

    private func decide(after response: Response, _ attempt: Attempt) -> Decision {
        guard retryableStatuses.contains(response.status), attempt.number < maxAttempts,
            allowsRetry(of: attempt.request)
        else { return .stop }
        guard respectsRetryAfter, let asked = response.retryAfter(now: now()) else {
            return .retryAfter(backoff.delay(beforeRetry: attempt.number))
        }
        return asked <= maximumRetryAfter ? .retryAfter(asked) : .stop
    }

    /// Whether `request` may be retried: its ``RequestOptions/isRetryable``, else ``retryableMethods``.
    public func allowsRetry(of request: any Request) -> Bool {
        request.options.isRetryable ?? retryableMethods.contains(request.method)
    }
}
