import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

struct RedirectPolicyTests {
    private func post(_ url: String, headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = Data("payload".utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    @Test(arguments: [301, 302, 303])
    func aPostRedirectedBy301To303BecomesAGetWithoutABody(status: Int) {
        // Given a POST with a body
        let previous = post("https://h.example/form")
        // When redirected
        let next = RedirectPolicy.nextRequest(
            after: previous, to: URL(string: "https://h.example/done")!,
            status: status, sensitiveHeaders: [])
        // Then it is a GET with no body and no Content-Type
        #expect(next.httpMethod == "GET")
        #expect(next.httpBody == nil)
        #expect(next.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(next.url?.absoluteString == "https://h.example/done")
    }

    @Test(arguments: [307, 308])
    func aPostRedirectedBy307Or308KeepsItsMethodAndBody(status: Int) {
        // Given a POST with a body
        let previous = post("https://h.example/upload")
        // When redirected
        let next = RedirectPolicy.nextRequest(
            after: previous, to: URL(string: "https://h.example/upload2")!,
            status: status, sensitiveHeaders: [])
        // Then method, body and type are resent
        #expect(next.httpMethod == "POST")
        #expect(next.httpBody == Data("payload".utf8))
        #expect(next.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func a303KeepsHeadAndTurnsPutIntoGet() {
        // Given a HEAD and a PUT
        var head = URLRequest(url: URL(string: "https://h.example/a")!)
        head.httpMethod = "HEAD"
        var put = post("https://h.example/a")
        put.httpMethod = "PUT"
        let target = URL(string: "https://h.example/b")!
        // When each is redirected with 303
        let nextHead = RedirectPolicy.nextRequest(after: head, to: target, status: 303, sensitiveHeaders: [])
        let nextPut = RedirectPolicy.nextRequest(after: put, to: target, status: 303, sensitiveHeaders: [])
        // Then HEAD stays HEAD, PUT becomes a bodiless GET
        #expect(nextHead.httpMethod == "HEAD")
        #expect(nextPut.httpMethod == "GET")
        #expect(nextPut.httpBody == nil)
    }

    @Test func credentialsAreDroppedWhenTheOriginChanges() {
        // Given a request with credentials and a custom sensitive header
        let previous = post(
            "https://h.example/a",
            headers: [
                "Authorization": "Bearer t", "Cookie": "s=1", "Proxy-Authorization": "Basic x",
                "X-Api-Key": "k", "Accept": "*/*",
            ])
        // When redirected to another host, port and scheme
        let targets = ["https://other.example/a", "https://h.example:8443/a", "http://h.example/a"]
        for target in targets {
            let next = RedirectPolicy.nextRequest(
                after: previous, to: URL(string: target)!, status: 307,
                sensitiveHeaders: ["x-api-key"])
            // Then every credential is gone and other headers stay
            for name in ["Authorization", "Cookie", "Proxy-Authorization", "X-Api-Key"] {
                #expect(next.value(forHTTPHeaderField: name) == nil, "\(name) sent to \(target)")
            }
            #expect(next.value(forHTTPHeaderField: "Accept") == "*/*")
        }
    }

    @Test func credentialsStayOnTheSameOrigin() {
        // Given a request with a token
        let previous = post("https://H.example/a", headers: ["Authorization": "Bearer t"])
        // When redirected on the same origin, spelled with another case and the default port
        let next = RedirectPolicy.nextRequest(
            after: previous, to: URL(string: "https://h.example:443/b")!,
            status: 307, sensitiveHeaders: [])
        // Then the token is kept
        #expect(next.value(forHTTPHeaderField: "Authorization") == "Bearer t")
    }

    @Test func sameOriginComparesSchemeHostAndPort() {
        // Given pairs of URLs
        func same(_ lhs: String, _ rhs: String) -> Bool {
            RedirectPolicy.sameOrigin(URL(string: lhs), URL(string: rhs))
        }
        // When compared
        // Then only scheme, host and effective port matter
        #expect(same("http://a.example/x", "http://a.example:80/y"))
        #expect(!same("http://a.example/", "https://a.example/"))
        #expect(!same("http://a.example/", "http://b.example/"))
        #expect(!same("http://a.example:8080/", "http://a.example/"))
        #expect(!RedirectPolicy.sameOrigin(nil, URL(string: "http://a.example/")))
    }

    @Test func namedPoliciesDecideAsTheySay() {
        // Given a hop
        let from = URLRequest(url: URL(string: "https://h.example/a")!)
        let hop = RedirectPolicy.Hop(from: from, to: from, status: 302, index: 0)
        // When each named policy decides
        // Then the default and limit follow, never stops
        #expect(RedirectPolicy.default.maximumHops == 10)
        #expect(RedirectPolicy.limit(3).maximumHops == 3)
        #expect(RedirectPolicy.never.maximumHops == 0)
        if case .follow = RedirectPolicy.default.decide(hop) {} else { Issue.record("default should follow") }
        if case .stop = RedirectPolicy.never.decide(hop) {} else { Issue.record("never should stop") }
    }
}
