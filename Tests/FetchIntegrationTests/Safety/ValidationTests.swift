import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch

/// Requests that cannot be sent as written are refused before a byte leaves, and query
/// values arrive exactly as given.
@Suite(.loopbackServers)
struct ValidationTests {
    /// A request that `adjust`s its URLRequest by hand, the way URLSession would put it on the wire.
    struct HandMade: Request {
        var url: URL
        var method: HTTPMethod = .get
        var headers: HTTPHeaders = [:]
        var setFields: [String: String] = [:]
        var body: RequestBody?

        func adjust(_ urlRequest: inout URLRequest) throws {
            var fields = urlRequest.allHTTPHeaderFields ?? [:]
            for (name, value) in setFields { fields[name] = value }
            urlRequest.allHTTPHeaderFields = fields
        }
    }

    /// Each way of writing a request that must never reach the wire.
    static func invalidRequests(to url: URL) -> [(String, any Request)] {
        [
            ("CR LF in a header value", BasicRequest(url: url, headers: ["X-Note": "a\r\nInjected: yes"])),
            ("LF in a header value", BasicRequest(url: url, headers: ["X-Note": "a\nInjected: yes"])),
            ("NUL in a header value", BasicRequest(url: url, headers: ["X-Note": "a\u{0}b"])),
            ("space in a header name", BasicRequest(url: url, headers: ["X Note": "a"])),
            ("colon in a header name", BasicRequest(url: url, headers: ["X-Note:": "a"])),
            ("CR LF in a header name", BasicRequest(url: url, headers: ["X-Note\r\nInjected": "a"])),
            ("space in the method", BasicRequest(url: url, method: "GET /evil HTTP/1.1\r\nX:")),
            ("space in the method", BasicRequest(url: url, method: "DE LETE")),
            (
                "caller-set Content-Length",
                BasicRequest(
                    url: url, method: .post, headers: ["Content-Length": "1"],
                    body: .text("much longer than one byte"))
            ),
            ("caller-set Host", BasicRequest(url: url, headers: ["Host": "elsewhere.example"])),
            ("caller-set Transfer-Encoding", BasicRequest(url: url, headers: ["Transfer-Encoding": "chunked"])),
            ("caller-set Connection", BasicRequest(url: url, headers: ["Connection": "upgrade"])),
            ("body on GET", BasicRequest(url: url, body: .text("body"))),
            ("body on HEAD", BasicRequest(url: url, method: .head, body: .text("body"))),
            ("CR LF set through allHTTPHeaderFields", HandMade(url: url, setFields: ["X-Note": "a\r\nInjected: yes"])),
            ("bad name set through allHTTPHeaderFields", HandMade(url: url, setFields: ["X Note": "a"])),
        ]
    }

    @Test func invalidRequestsAreRefusedAndSendNoByte() async throws {
        // Given a listener that counts every connection and byte it receives
        let servers = try LoopbackServers.require()
        let port = try await servers.faults.openSink()
        let url = URL(string: "http://127.0.0.1:\(port)/target")!
        let session = Session()
        // When each invalid request is performed against it
        for (name, request) in Self.invalidRequests(to: url) {
            let error = await #expect(throws: FetchError.self, "\(name)") {
                try await session.response(for: request)
            }
            // Then each fails with invalidRequest naming the URL
            #expect(error?.code == .invalidRequest, "\(name)")
            #expect(error?.url?.host == "127.0.0.1", "\(name)")
        }
        // And a valid request afterwards is the first and only thing the listener ever received
        let response = try await session.response(for: BasicRequest(url: url))
        #expect(response.status == 200)
        let stats = try await servers.faults.sinkStats(port: port)
        #expect(stats.connections == 1)
        #expect(stats.bytes > 0)
    }

    @Test(arguments: ["file:///etc/hostname", "ftp://127.0.0.1/file.txt", "gopher://127.0.0.1/", "http:///no-host"])
    func onlyHTTPAndHTTPSURLsAreRequested(target: String) async throws {
        // Given a URL that is not http(s) or has no host
        let url = try #require(URL(string: target))
        // When it is requested
        // Then it fails with invalidRequest before anything is sent
        let error = await #expect(throws: FetchError.self) { try await Session().response(for: BasicRequest(url: url)) }
        #expect(error?.code == .invalidRequest)
    }

    @Test func ipv6LiteralHostIsAnInvalidRequest() async throws {
        // Given a URL with an IPv6 literal host, which URLSession on Linux refuses before connecting
        let url = try #require(URL(string: "http://[::1]:1/target"))
        // When it is requested
        // Then it fails with invalidRequest naming the URL
        let error = await #expect(throws: FetchError.self) { try await Session().response(for: BasicRequest(url: url)) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.url == url)
    }

    @Test func queryValuesArriveExactly() async throws {
        // Given query values made of every character that URLComponents gets wrong
        struct Args: Decodable, Parsable { let args: [String: String] }
        let servers = try LoopbackServers.require()
        let values: [String: String] = [
            "plus": "a+b", "amp": "a&b", "eq": "a=b", "question": "a?b", "slash": "a/b", "semicolon": "a;b",
            "hash": "a#b", "percent": "100%", "percent_hex": "%41%zz", "space": "a b", "accent": "é",
            "emoji": "😀", "all": "+ & = ? / ; # % é 😀",
        ]
        let request = BasicRequest(
            url: servers.httpbin.url("/get"),
            queryItems: values.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        )
        // When it is sent to httpbin
        let echoed = try await Session().perform(request, as: Args.self)
        // Then httpbin decodes every value exactly as given
        #expect(echoed.args == values)
    }

    @Test func queryNamesArriveExactly() async throws {
        // Given query names with reserved characters
        struct Args: Decodable, Parsable { let args: [String: String] }
        let servers = try LoopbackServers.require()
        let request = BasicRequest(
            url: servers.httpbin.url("/get"),
            queryItems: [
                URLQueryItem(name: "a+b&c=d", value: "1"), URLQueryItem(name: "é 😀", value: "2"),
            ])
        // When it is sent to httpbin
        let echoed = try await Session().perform(request, as: Args.self)
        // Then the names arrive exactly as given
        #expect(echoed.args == ["a+b&c=d": "1", "é 😀": "2"])
    }
}
