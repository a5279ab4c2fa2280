import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

@Suite struct LoggingPerformerTests {
    /// A configuration whose clock moves 12.5 ms per reading and whose sink records events.
    private func configuration(_ options: LogOptions = .default, redaction: Redaction = .default)
        -> (LogConfiguration, Recorder<LogEvent>)
    {
        let events = Recorder<LogEvent>()
        let readings = Recorder<Int>()
        var configuration = LogConfiguration(options: options, redaction: redaction) { events.record($0) }
        configuration.clock = {
            readings.record(1)
            return .microseconds(12_500 * readings.count)
        }
        return (configuration, events)
    }

    @Test func logsOneLinePerCallByDefault() {
        // Given the default options
        let (configuration, events) = configuration()
        let performer = SpyPerformer([.status(200)]).logging(configuration)

        // When a call is made
        let result = performNow(performer, get("http://x/users?page=2"))

        // Then one info line names method, URL, status and time
        #expect(outcome(result) == "200")
        #expect(events.single?.message == "GET http://x/users?page=2 -> 200 (12.5 ms)")
        #expect(events.single?.level == .info)
        #expect(events.single?.duration == .microseconds(12_500))
    }

    @Test func failuresAreLoggedAsErrors() {
        // Given a failing call
        let (configuration, events) = configuration()
        let performer = SpyPerformer([.failure(.timedOut, reason: "no bytes for 30 s")]).logging(configuration)

        // When it is made
        performNow(performer, get("http://x/slow"))

        // Then the entry is an error naming the code and reason
        #expect(events.single?.level == .error)
        #expect(events.single?.message == "GET http://x/slow -> timedOut: no bytes for 30 s (12.5 ms)")
    }

    @Test func headersAreLoggedWithSensitiveValuesHidden() {
        // Given header logging, a request with credentials, and a response setting a cookie
        let (configuration, events) = configuration(.headers)
        let request = BasicRequest(
            url: URL(string: "http://x")!,
            headers: [
                "Authorization": "Bearer secret", "Cookie": "session=secret", "Proxy-Authorization": "Basic secret",
                "Accept": "application/json",
            ])
        let response = Response.status(200, headers: ["Set-Cookie": "session=secret", "Content-Type": "text/plain"])
        let performer = SpyPerformer([.response(response)]).logging(configuration)

        // When the call is made
        performNow(performer, request)

        // Then every header is there, and no secret is
        let message = events.single?.message ?? ""
        #expect(!message.contains("secret"))
        #expect(message.contains("> Authorization: <redacted>"))
        #expect(message.contains("> Cookie: <redacted>"))
        #expect(message.contains("> Proxy-Authorization: <redacted>"))
        #expect(message.contains("> Accept: application/json"))
        #expect(message.contains("< Set-Cookie: <redacted>"))
        #expect(message.contains("< Content-Type: text/plain"))
    }

    @Test func configuredHeaderAndQueryNamesAreHiddenToo() {
        // Given a redaction of X-Api-Key and the token query item
        let redaction = Redaction.default.adding(headers: ["x-api-key"], queryItems: ["Token"])
        let (configuration, events) = configuration(.headers, redaction: redaction)
        let request = BasicRequest(
            url: URL(string: "http://user:pa55@x/a?token=secret&page=2")!, headers: ["X-API-Key": "secret"]
        )

        // When the call is made
        performNow(SpyPerformer([.status(200)]).logging(configuration), request)

        // Then the key, the token and the password are hidden, the rest is not
        let message = events.single?.message ?? ""
        #expect(!message.contains("secret"))
        #expect(!message.contains("pa55"))
        #expect(message.contains("http://user:<redacted>@x/a?token=<redacted>&page=2"))
        #expect(message.lowercased().contains("> x-api-key: <redacted>"))  // URLRequest recases the name
    }

    @Test func bodiesAreLoggedUpToTheLimit() {
        // Given body logging with a 5-byte limit
        var (configuration, events) = configuration([.method, .requestBody, .responseBody])
        configuration.bodyLimit = 5
        let request = BasicRequest(url: URL(string: "http://x")!, method: .post, body: .text("hello world"))
        let performer = SpyPerformer([.text("abcdefgh")]).logging(configuration)

        // When the call is made
        performNow(performer, request)

        // Then both bodies are cut at five bytes
        #expect(events.single?.message == "POST\n> hello…\n< abcde…")
    }

    @Test func aRequestCanAskForMoreOrForNothing() {
        // Given the default options
        let (configuration, events) = configuration()
        let performer = SpyPerformer(match: { _ in .status(200) }).logging(configuration)

        // When one call asks for everything and one for nothing
        performNow(performer, get("http://x/loud").with(\.logOptions, .all))
        performNow(performer, get("http://x/quiet").with(\.logOptions, LogOptions.none))

        // Then only the loud call was logged, with its cURL command
        #expect(events.count == 1)
        #expect(events.single?.message.contains("curl 'http://x/loud'") == true)
    }

    @Test func theLogShowsWhatWasSentAfterTheLayersBelow() {
        // Given logging above a base URL and a bearer token
        let (configuration, events) = configuration([.method, .url, .requestHeaders])
        let performer = SpyPerformer([.status(200)])
            .enhanced(by: BaseURL("https://api.test"), BearerToken(TokenStore("secret")))
            .logging(configuration)

        // When a relative request is made
        performNow(performer, get("users"))

        // Then the full URL is logged and the token is not
        #expect(events.single?.message == "GET https://api.test/users\n> Authorization: <redacted>")
    }

    @Test func callbackAndAsyncCallersAreLoggedTheSame() async {
        // Given two identical logged stacks
        let (first, firstEvents) = configuration()
        let (second, secondEvents) = configuration()

        // When one is called with a callback and one with async/await
        performNow(SpyPerformer([.status(204)]).logging(first), get("http://x"))
        _ = await asyncOutcome(SpyPerformer([.status(204)]).logging(second), get("http://x"))

        // Then both wrote the same entry
        #expect(firstEvents.single?.message == "GET http://x -> 204 (12.5 ms)")
        #expect(secondEvents.single?.message == firstEvents.single?.message)
    }

    @Test func aFailureCarryingAResponseIsLoggedWithItsHeadersAndBody() {
        // Given header and body logging, and a verifier below that turns a 503 into an error
        let (configuration, events) = configuration([.method, .url, .status, .headers, .responseBody])
        let response = Response.status(503, body: "down for maintenance", headers: ["Set-Cookie": "session=secret"])
        let request = BasicRequest(url: URL(string: "http://x/a")!, headers: ["Authorization": "Bearer secret"])
        let performer = SpyPerformer([.response(response)]).enhanced(by: StatusVerifier(200..<300)).logging(
            configuration)

        // When the call is made
        let result = performNow(performer, request)

        // Then the error entry shows what was sent and what came back, secrets hidden
        let message = events.single?.message ?? ""
        #expect(fetchError(result)?.status == 503)
        #expect(events.single?.level == .error)
        #expect(message.hasPrefix("GET http://x/a -> httpStatus: HTTP 503"))
        #expect(message.contains("> Authorization: <redacted>"))
        #expect(message.contains("< Set-Cookie: <redacted>"))
        #expect(message.contains("< down for maintenance"))
        #expect(!message.contains("secret"))
    }

    @Test func aURLInAnErrorReasonIsRedacted() {
        // Given a redaction of the token query item and an error whose reason quotes a URL with a token and a password
        let (configuration, events) = configuration(redaction: .default.adding(queryItems: ["token"]))
        let reason = "could not reach https://user:pa55@api.test/a?token=secret&page=2, giving up"
        let performer = SpyPerformer([.failure(.cannotConnect, reason: reason)]).logging(configuration)

        // When the call fails
        performNow(performer, get("http://x/a"))

        // Then the reason is logged with the token and password hidden and the rest intact
        let message = events.single?.message ?? ""
        #expect(
            message == "GET http://x/a -> cannotConnect: could not reach "
                + "https://user:<redacted>@api.test/a?token=<redacted>&page=2, giving up (12.5 ms)")
    }
}
