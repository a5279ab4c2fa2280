import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import TestSupport

/// `Session` against httpbin and the fault server, both on 127.0.0.1.
@Suite(.loopbackServers, .timeLimit(.minutes(2)))
struct SessionCoreTests {
    /// What httpbin's /get, /post and friends echo back.
    struct Echo: Decodable, Parsable {
        let args: [String: String]
        let headers: [String: String]
    }

    /// What httpbin's /post echoes for a JSON body.
    struct JSONEcho<Body: Decodable & Sendable>: Decodable, Parsable {
        let json: Body
        let headers: [String: String]
    }

    /// What httpbin's /post echoes for a form or multipart body.
    struct FormEcho: Decodable, Parsable {
        let form: [String: String]
        let files: [String: String]
    }

    struct NewUser: Codable, Equatable, Sendable {
        let name: String
        let tags: [String]
        let admin: Bool
    }

    private func options(idleTimeout: Duration?, deadline: Duration?) -> RequestOptions {
        RequestOptions().with(\.idleTimeout, idleTimeout).with(\.deadline, deadline)
    }

    @Test func getQueryIsEchoedExactly() async throws {
        // Given a session and a GET whose query holds '+' and '/'
        let servers = try LoopbackServers.require()
        let request = BasicRequest(
            url: servers.httpbin.url("/get"),
            queryItems: [
                URLQueryItem(name: "q", value: "a+b"), URLQueryItem(name: "c", value: "1/2"),
            ])
        // When it is performed
        let echo = try await Session().perform(request, as: Echo.self)
        // Then httpbin echoes the values exactly, and saw Fetch's User-Agent
        #expect(echo.args == ["q": "a+b", "c": "1/2"])
        #expect(echo.headers["User-Agent"] == "Fetch/\(Session.version)")
    }

    @Test func postedJSONRoundTripsIntoADecodable() async throws {
        // Given a POST with a JSON body holding non-ASCII text
        let servers = try LoopbackServers.require()
        let user = NewUser(name: "José 😀", tags: ["a+b", "c&d"], admin: false)
        let request = BasicRequest(url: servers.httpbin.url("/post"), method: .post, body: .json(user))
        // When it is performed
        let echo = try await Session().perform(request, as: JSONEcho<NewUser>.self)
        // Then the server parsed the same value, sent as application/json
        #expect(echo.json == user)
        #expect(echo.headers["Content-Type"] == "application/json")
    }

    @Test func formFieldsArriveAsGiven() async throws {
        // Given a form body whose values hold '+', '&', '=', spaces and non-ASCII
        let servers = try LoopbackServers.require()
        let fields = ["q": "a+b & c=d", "name": "José", "empty": ""]
        let request = BasicRequest(url: servers.httpbin.url("/post"), method: .post, body: .form(fields))
        // When it is performed
        let echo = try await Session().perform(request, as: FormEcho.self)
        // Then the server read every field back exactly
        #expect(echo.form == fields)
        #expect(echo.files.isEmpty)
    }

    @Test func multipartFieldsAndFilesArrive() async throws {
        // Given a multipart body with two text fields and a file
        let servers = try LoopbackServers.require()
        var form = MultipartForm()
        form.append("Ada", name: "name")
        form.append("line one\r\nline two", name: "note")
        form.append(Data("hello file".utf8), name: "upload", fileName: "hello.txt", contentType: "text/plain")
        let request = BasicRequest(url: servers.httpbin.url("/post"), method: .post, body: .multipart(form))
        // When it is performed
        let echo = try await Session().perform(request, as: FormEcho.self)
        // Then the server saw the fields as fields and the file as a file
        #expect(echo.form == ["name": "Ada", "note": "line one\r\nline two"])
        #expect(echo.files == ["upload": "hello file"])
    }

    @Test func notFoundIsTheHTTPStatusErrorWithTheBody() async throws {
        // Given a server answering 404 with a body
        let servers = try LoopbackServers.require()
        var url = URLComponents(url: servers.faults.url("/status"), resolvingAgainstBaseURL: false)!
        url.queryItems = [URLQueryItem(name: "code", value: "404"), URLQueryItem(name: "body", value: "no such thing")]
        let request = BasicRequest(url: try #require(url.url))
        let session = Session()
        // When the raw response is asked for, and then a model
        let response = try await session.response(for: request)
        let error = await #expect(throws: FetchError.self) { try await session.perform(request, as: Echo.self) }
        // Then the raw call returns the 404, and parsing throws httpStatus carrying it and its body
        #expect(response.status == 404)
        #expect(error?.code == .httpStatus)
        #expect(error?.status == 404)
        #expect(error?.response?.body == Data("no such thing".utf8))
        #expect(error?.description.contains("HTTP 404; body began: no such thing") == true)
    }

    @Test func connectionRefusedIsCannotConnect() async throws {
        // Given a port that is held bound and never listens
        let refusing = try RefusingPort()
        let url = try #require(URL(string: "http://127.0.0.1:\(refusing.port)/"))
        // When a session requests it
        // Then the call fails with cannotConnect naming the URL
        let error = await #expect(throws: FetchError.self) { try await Session().response(for: BasicRequest(url: url)) }
        #expect(error?.code == .cannotConnect)
        #expect(error?.url == url)
        withExtendedLifetime(refusing) {}
    }

    @Test(arguments: [
        (Duration.seconds(1), Duration?.none, FetchError.Code.timedOut),  // idle timeout of one second
        (.seconds(20), .seconds(1), .deadlineExceeded),  // long idle timeout, deadline of one second
    ])
    func aSilentServerTimesOut(idleTimeout: Duration, deadline: Duration?, expected: FetchError.Code) async throws {
        // Given a server that accepts the connection and never answers
        let servers = try LoopbackServers.require()
        let request = BasicRequest(
            url: servers.faults.url("/stall"), options: options(idleTimeout: idleTimeout, deadline: deadline)
        )
        let clock = ContinuousClock()
        let start = clock.now
        // When a session requests it
        let error = await #expect(throws: FetchError.self) { try await Session().response(for: request) }
        // Then it fails with the named timeout, naming the URL, long before the server gives up
        #expect(error?.code == expected)
        #expect(error?.url == request.url)
        #expect(clock.now - start < .seconds(10))
    }

    @Test(arguments: [
        ("/garbage", FetchError.Code.badServerResponse),  // bytes that are not HTTP
        ("/empty", .badServerResponse),  // closed without a byte
        ("/partial", .connectionLost),  // Content-Length 1000, 10 bytes, close
    ])
    func aBrokenReplyHasItsNamedError(path: String, expected: FetchError.Code) async throws {
        // Given the fault server misbehaving at `path`
        let servers = try LoopbackServers.require()
        let request = BasicRequest(url: servers.faults.url(path))
        // When a session requests it
        // Then the call fails with the named error, naming the URL
        let error = await #expect(throws: FetchError.self) { try await Session().response(for: request) }
        #expect(error?.code == expected)
        #expect(error?.url == request.url)
    }

    @Test func twoHundredConcurrentRequestsAllCompleteExactlyOnce() async throws {
        // Given one session and 200 requests, each naming its index
        let servers = try LoopbackServers.require()
        let session = Session()
        let total = 200
        let tally = Tally(total)
        // When they are all started at once with callbacks
        try await within(.seconds(90), "the 200 completions") {
            await withCheckedContinuation { (allDone: CheckedContinuation<Void, Never>) in
                tally.onAllDone { allDone.resume() }
                for index in 0..<total {
                    let request = BasicRequest(
                        url: servers.httpbin.url("/get"),
                        queryItems: [URLQueryItem(name: "i", value: "\(index)")])
                    session.perform(request, as: Echo.self) { result in
                        tally.record(index, echoed: (try? result.get())?.args["i"], error: result.failureDescription)
                    }
                }
            }
        }
        // and one more call goes through the same session afterwards
        _ = try await session.response(for: BasicRequest(url: servers.httpbin.url("/get")))
        // Then every request completed once, with its own response
        #expect(tally.failures.isEmpty, "\(tally.failures.prefix(3))")
        #expect(tally.counts.allSatisfy { $0 == 1 })
        #expect(tally.mismatches.isEmpty)
    }
}

/// Counts completions per request index, under a lock.
private final class Tally: @unchecked Sendable {
    // `lock` guards `counts`, `failures`, `mismatches`, `finished` and `done`.
    private let lock = NSLock()
    private(set) var counts: [Int]
    private(set) var failures: [String] = []
    private(set) var mismatches: [Int] = []
    private var finished = 0
    private var done: (@Sendable () -> Void)?

    init(_ total: Int) { counts = Array(repeating: 0, count: total) }

    /// Sets what runs once every index has completed at least once.
    func onAllDone(_ action: @escaping @Sendable () -> Void) {
        lock.withLock { done = action }
    }

    /// Records one completion for `index`.
    func record(_ index: Int, echoed: String?, error: String?) {
        let action: (@Sendable () -> Void)? = lock.withLock {
            counts[index] += 1
            if let error { failures.append(error) } else if echoed != "\(index)" { mismatches.append(index) }
            guard counts[index] == 1 else { return nil }
            finished += 1
            guard finished == counts.count else { return nil }
            defer { done = nil }
            return done
        }
        action?()
    }
}

extension Result {
    /// The failure's description, `nil` for a success.
    var failureDescription: String? {
        if case .failure(let error) = self { return "\(error)" }
        return nil
    }
}
