import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct RetryPolicyTests {
    private let policy = RetryPolicy.exponential(maxAttempts: 3, initial: .seconds(1), jitter: .none)

    private func decide(
        _ result: Result<Response, any Error>, number: Int = 1, request: any Request = get("http://x"),
        policy: RetryPolicy? = nil
    ) -> RetryPolicy.Decision {
        (policy ?? self.policy).decide(RetryPolicy.Attempt(number: number, request: request, result: result))
    }

    @Test(arguments: [FetchError.Code.timedOut, .connectionLost, .notConnected, .cannotConnect])
    func transientErrorsAreRetriedWithBackoff(code: FetchError.Code) {
        // Given a transient error on the second attempt
        // When the policy decides
        // Then it retries after the second back-off delay
        #expect(decide(.failure(FetchError(code, reason: "")), number: 2) == .retryAfter(.seconds(2)))
    }

    @Test(arguments: [FetchError.Code.cancelled, .invalidRequest, .hostNotFound, .decoding, .layer])
    func otherErrorsAreNot(code: FetchError.Code) {
        // Given an error that another attempt will not fix
        // When the policy decides
        // Then it stops
        #expect(decide(.failure(FetchError(code, reason: ""))) == .stop)
    }

    @Test func urlErrorsAreClassifiedToo() {
        // Given a raw URLError timeout, as a custom performer might deliver
        // When the policy decides
        // Then it is retried like a timedOut FetchError
        #expect(decide(.failure(URLError(.timedOut))) == .retryAfter(.seconds(1)))
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatusesAreRetried(status: Int) {
        // Given a retryable status
        // When the policy decides
        // Then it retries
        #expect(decide(.success(.status(status))) == .retryAfter(.seconds(1)))
    }

    @Test(arguments: [200, 201, 301, 400, 401, 404, 501])
    func otherStatusesAreNot(status: Int) {
        // Given a status another attempt will not change
        // When the policy decides
        // Then it stops
        #expect(decide(.success(.status(status))) == .stop)
    }

    @Test func theLastAttemptStops() {
        // Given a retryable failure on the third of three attempts
        // When the policy decides
        // Then it stops
        #expect(decide(.success(.status(503)), number: 3) == .stop)
    }

    @Test func onlyIdempotentMethodsAreRetriedUnlessTheRequestOptsIn() {
        // Given a POST, a POST that opts in, and a GET that opts out
        let post = BasicRequest(url: URL(string: "http://x")!, method: .post)
        let optedIn = post.with(\.isRetryable, true)
        let optedOut = get("http://x").with(\.isRetryable, false)

        // When each fails with 503
        // Then only the opted-in POST is retried
        #expect(decide(.success(.status(503)), request: post) == .stop)
        #expect(decide(.success(.status(503)), request: optedIn) == .retryAfter(.seconds(1)))
        #expect(decide(.success(.status(503)), request: optedOut) == .stop)
        for method: HTTPMethod in [.get, .head, .options, .put, .delete, .trace] {
            #expect(
                decide(.success(.status(503)), request: BasicRequest(url: URL(string: "http://x")!, method: method))
                    != .stop)
        }
    }

    @Test func retryAfterInSecondsSetsTheDelay() {
        // Given a 503 asking for 7 seconds
        // When the policy decides
        // Then it waits 7 seconds, whatever the back-off says
        #expect(decide(.success(.status(503, headers: ["Retry-After": "7"]))) == .retryAfter(.seconds(7)))
    }

    @Test func retryAfterAsAnHTTPDateSetsTheDelay() {
        // Given a fixed clock and a 429 asking to wait until 50 seconds later
        var policy = self.policy
        let now = Date(timeIntervalSince1970: 1_445_412_390)  // Wed, 21 Oct 2015 07:26:30 GMT
        policy.now = { now }
        let response = Response.status(429, headers: ["Retry-After": "Wed, 21 Oct 2015 07:27:20 GMT"])

        // When the policy decides
        // Then it waits the 50 seconds
        #expect(decide(.success(response), policy: policy) == .retryAfter(.seconds(50)))
    }

    @Test func obsoleteDateFormatsAndPastDatesAreRead() {
        // Given the two obsolete formats RFC 9110 allows, and a date in the past
        let now = Date(timeIntervalSince1970: 1_445_412_390)
        func delay(_ value: String) -> Duration? {
            Response.status(503, headers: ["Retry-After": value]).retryAfter(now: now)
        }

        // When they are read
        // Then each gives the right delay, the past one zero
        #expect(delay("Wednesday, 21-Oct-15 07:28:00 GMT") == .seconds(90))
        #expect(delay("Wed Oct 21 07:28:00 2015") == .seconds(90))
        #expect(delay("Tue, 20 Oct 2015 07:28:00 GMT") == .zero)
        #expect(delay("soon") == nil)
    }

    @Test func aRetryAfterLongerThanTheCapStops() {
        // Given a policy that waits at most 30 seconds and a 503 asking for an hour
        var policy = self.policy
        policy.maximumRetryAfter = .seconds(30)

        // When the policy decides
        // Then it delivers the 503 instead of waiting
        #expect(decide(.success(.status(503, headers: ["Retry-After": "3600"])), policy: policy) == .stop)
        #expect(
            decide(.success(.status(503, headers: ["Retry-After": "99999999999999999999999"])), policy: policy) == .stop
        )
    }

    @Test func retryAfterCanBeIgnored() {
        // Given a policy that does not respect Retry-After
        var policy = self.policy
        policy.respectsRetryAfter = false

        // When a 503 asks for 7 seconds
        // Then the back-off delay is used
        #expect(
            decide(.success(.status(503, headers: ["Retry-After": "7"])), policy: policy) == .retryAfter(.seconds(1)))
    }

    @Test func aStatusCarriedByAnErrorIsJudgedLikeTheResponse() {
        // Given 503 and 404 responses turned into errors by a layer below, the 503 asking for 7 seconds
        let unavailable = FetchError.httpStatus(.status(503, headers: ["Retry-After": "7"]))
        let missing = FetchError.httpStatus(.status(404))

        // When the policy decides
        // Then the 503 is retried after its Retry-After, the 404 is not
        #expect(decide(.failure(unavailable)) == .retryAfter(.seconds(7)))
        #expect(decide(.failure(missing)) == .stop)
        #expect(decide(.failure(unavailable), number: 3) == .stop)
    }

    @Test func aStatusCarriedByAnErrorHonoursTheCap() {
        // Given a policy that waits at most 30 seconds and a 503 error asking for an hour
        var policy = self.policy
        policy.maximumRetryAfter = .seconds(30)
        let error = FetchError.httpStatus(.status(503, headers: ["Retry-After": "3600"]))

        // When the policy decides
        // Then it delivers the error instead of waiting
        #expect(decide(.failure(error), policy: policy) == .stop)
    }
}
