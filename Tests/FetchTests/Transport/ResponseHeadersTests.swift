import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import Fetch

/// Header fields read from an `HTTPURLResponse` when first needed: they behave as a list
/// built from the same fields.
struct ResponseHeadersTests {
    static let response = HTTPURLResponse(
        url: URL(string: "https://api.example.com/items")!, statusCode: 200, httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "application/json", "ETag": "\"v1\"", "Cache-Control": "max-age=60"])!

    @Test func lookupsAnswerFromTheResponseIgnoringCase() {
        // Given a response's fields
        let headers = HTTPHeaders(Self.response)
        // When fields are looked up in any case
        // Then each is found, and a missing one is not
        #expect(headers.first("content-type") == "application/json")
        #expect(headers["ETAG"] == "\"v1\"")
        #expect(headers.values(for: "cache-control") == ["max-age=60"])
        #expect(headers.contains("Cache-Control") && !headers.contains("Age"))
        #expect(headers.values(for: "Age").isEmpty && headers.first("Age") == nil)
    }

    @Test func theyEqualAndHashAsTheSameFieldsBuiltByHand() {
        // Given a response's fields and the same fields built in the order they iterate
        let headers = HTTPHeaders(Self.response)
        let built = HTTPHeaders(headers.map { ($0.name, $0.value) })
        // When they are compared, counted and hashed
        // Then they are the same three fields
        #expect(headers.count == 3 && !headers.isEmpty)
        #expect(Set(headers.map { $0.name.lowercased() }) == ["content-type", "etag", "cache-control"])
        #expect(headers == built && built == headers)
        #expect(headers.hashValue == built.hashValue)
        #expect(headers.description.lowercased().contains("etag: \"v1\""))
    }

    @Test func aChangeLeavesOtherCopiesAsTheyWere() {
        // Given a response's fields and a copy of them
        let original = HTTPHeaders(Self.response)
        var changed = original
        // When the copy sets, adds and removes fields
        changed.set("etag", "\"v2\"")
        changed.add("Age", "5")
        changed.remove("Content-Type")
        // Then the copy holds the changes and the original the response's fields
        #expect(changed.first("ETag") == "\"v2\"" && changed.first("Age") == "5" && !changed.contains("Content-Type"))
        #expect(changed.count == 3 && changed != original)
        #expect(original.first("ETag") == "\"v1\"" && original.contains("Content-Type") && original.count == 3)
    }

    @Test func anXNameInTwoCasesIsTwoFieldsForEveryLookup() {
        // Given a response with the same X- name in two cases, which URLSession keeps apart
        let response = HTTPURLResponse(
            url: URL(string: "https://api.example.com/items")!, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["x-trace": "1", "X-Trace": "2", "Content-Type": "text/plain"])!
        let headers = HTTPHeaders(response)
        // When the name is looked up
        let listed = headers.filter { $0.name.lowercased() == "x-trace" }.map(\.value)
        // Then every lookup agrees with the list: both values, the first one first
        #expect(listed.sorted() == ["1", "2"])
        #expect(headers.values(for: "X-TRACE") == listed)
        #expect(headers.first("x-Trace") == listed.first)
        #expect(headers.contains("X-trace") && headers.first("Content-Type") == "text/plain")
    }
}
