import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Fetch
import FetchTesting

/// `RequestBody.encoded(contentType:_:)`: a body of the caller's own format that may fail.
struct CustomBodyTests {
    private struct NotSerializable: Error {}

    private static let url = URL(string: "https://api.example.com/messages")!

    private static func failing() -> BasicRequest {
        BasicRequest(
            url: url, method: .post,
            body: .encoded(contentType: "application/x-protobuf") {
                throw NotSerializable()
            })
    }

    @Test func aCustomBodyIsSentWithItsContentType() throws {
        // Given a POST whose body is encoded by the caller's closure
        let request = BasicRequest(
            url: Self.url, method: .post,
            body: .encoded(contentType: "application/x-protobuf") {
                Data([8, 150, 1])
            })
        // When it is built
        let urlRequest = try request.makeURLRequest()
        // Then the closure's bytes are the body, sent with its content type
        #expect(urlRequest.httpBody == Data([8, 150, 1]))
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/x-protobuf")
    }

    @Test func aCustomBodyThatThrowsFailsToBuildWithEncodingNamingTheRequest() {
        // Given a POST whose body closure throws
        let request = Self.failing()
        // When it is built
        // Then it throws encoding (not invalidRequest), naming the request, with the closure's error attached
        let error = #expect(throws: FetchError.self) { try request.makeURLRequest() }
        #expect(error?.code == .encoding)
        #expect(error?.method == .post)
        #expect(error?.url == Self.url)
        #expect(error?.underlying is NotSerializable)
        #expect(
            error?.description.hasPrefix("POST https://api.example.com/messages: could not encode the body") == true)
    }

    @Test func aFetchErrorFromTheClosureIsKept() {
        // Given a body closure that throws a FetchError of its own
        let body = RequestBody.encoded(contentType: nil) { throw FetchError(.file, reason: "source gone") }
        // When it is encoded
        // Then that error arrives unchanged
        let error = #expect(throws: FetchError.self) { try body.encoded() }
        #expect(error?.code == .file)
        #expect(error?.reason == "source gone")
    }

    @Test func aCustomBodyThatThrowsFailsOverTheSpyWithEncoding() {
        // Given a spy that would answer, and a POST whose body closure throws
        let spy = SpyPerformer([.status(200)])
        let results = Captured<Result<Response, any Error>>()
        // When it is performed
        spy.perform(Self.failing()) { results.record($0) }
        // Then the caller gets encoding naming the request, as from Session
        let error = #expect(throws: FetchError.self) { try results.only?.get() }
        #expect(error?.code == .encoding)
        #expect(error?.method == .post)
        #expect(error?.url == Self.url)
        #expect(error?.underlying is NotSerializable)
    }
}
